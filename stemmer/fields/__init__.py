"""Named slots (fields): name a layout's slot from one example value, read its value on every page."""
from stemmer.fields.values import FieldValue, field_values

__all__ = ["FieldValue", "field_values"]
