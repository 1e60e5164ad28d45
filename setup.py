"""The compiled block walker (stemmer/blocks/_walker.pyx), an optional extension.

Everything else about the package is in pyproject.toml.  Where Cython, lxml's
headers or a C compiler are missing, the install goes on without the
extension and stemmer uses its pure-Python walker (same blocks, slower).
"""
from setuptools import Extension, setup


def extensions() -> list:
    try:
        import lxml
        from Cython.Build import cythonize
    except ImportError as exc:
        print(f"stemmer: not building the compiled block walker ({exc}); the Python walker will be used")
        return []
    ext = Extension("stemmer.blocks._walker", ["stemmer/blocks/_walker.pyx"], include_dirs=lxml.get_include())
    try:
        built = cythonize([ext], language_level=3, quiet=True)
    except Exception as exc:  # noqa: BLE001 -- whatever stops Cython, the install goes on
        print(f"stemmer: not building the compiled block walker ({exc}); the Python walker will be used")
        return []
    for ext in built:
        ext.optional = True  # a failed compile is a warning (cythonize does not carry the flag over)
    return built


setup(ext_modules=extensions())
