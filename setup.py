"""The compiled block walker (stemmer/blocks/_walker.pyx), stylesheet scan (stemmer/blocks/_stylesheet.pyx), tree
walk (stemmer/classify/_trees.pyx), text statistics (stemmer/classify/_text_stats.pyx) and UTF-8 reader
(stemmer/pages/_utf8.pyx), optional extensions.

Everything else about the package is in pyproject.toml.  Where Cython, lxml's
headers or a C compiler are missing, the install goes on without the
extensions and stemmer uses its pure-Python walker and numpy's tree walk
(same blocks and probabilities, slower).
"""
from setuptools import Extension, setup


def extensions() -> list:
    try:
        import lxml
        from Cython.Build import cythonize
    except ImportError as exc:
        print(f"stemmer: not building the compiled extensions ({exc}); the Python walker and numpy's tree walk will be used")
        return []
    exts = [Extension("stemmer.blocks._walker", ["stemmer/blocks/_walker.pyx"], include_dirs=lxml.get_include()),
            Extension("stemmer.blocks._stylesheet", ["stemmer/blocks/_stylesheet.pyx"]),
            Extension("stemmer.classify._trees", ["stemmer/classify/_trees.pyx"]),
            Extension("stemmer.classify._text_stats", ["stemmer/classify/_text_stats.pyx"]),
            Extension("stemmer.pages._utf8", ["stemmer/pages/_utf8.pyx"])]
    try:
        built = cythonize(exts, language_level=3, quiet=True)
    except Exception as exc:  # noqa: BLE001 -- whatever stops Cython, the install goes on
        print(f"stemmer: not building the compiled extensions ({exc}); the Python walker and numpy's tree walk will be used")
        return []
    for ext in built:
        ext.optional = True  # a failed compile is a warning (cythonize does not carry the flag over)
    return built


setup(ext_modules=extensions())
