import pytest

from stemmer.metadata import clean_author


@pytest.mark.parametrize("text, expected", [
    ("By Jane Doe", "Jane Doe"),
    ("Posted by admin", "admin"),
    ("Written by: Bob Stone", "Bob Stone"),
    ("BY MARK SMITH on March 5, 2024", "MARK SMITH"),
    ("By Jane Doe and John Roe | March 5, 2024", "Jane Doe, John Roe"),
    ("Jane Doe, Staff Writer", "Jane Doe"),
    ("Genevieve Carlton, Ph.D.", "Genevieve Carlton, Ph.D."),
    ("Maria &amp; Katerina", "Maria, Katerina"),
    ("Par Jean Dupont le 5 mars 2024", "Jean Dupont"),
    ("Parisa Ostovari", "Parisa Ostovari"),
    ("Byron Smith", "Byron Smith"),
    ("Von Anna Schmidt", "Anna Schmidt"),
    ("作者：张三", "张三"),
    ("Jane Doe (jane@example.com)", "Jane Doe"),
])
def test_bylines_clean_to_names(text, expected):
    assert clean_author(text) == expected


@pytest.mark.parametrize("text", [None, "", "By", "March 5, 2024", "https://facebook.com/someone",
                                  "This is a whole sentence that goes on far too long to be anybody's name"])
def test_nothing_name_like(text):
    assert clean_author(text) is None
