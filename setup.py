"""The package list, found rather than written (everything else is in
pyproject.toml): every folder of scorekeeper/, each game's templates/ and
static/ among them, and the shared templates/, static/ and docs/ at the top of
the repository, which pyproject.toml maps into the package.

The build also compiles the translations: each
scorekeeper/translations/<code>/LC_MESSAGES/messages.po becomes the
messages.mo beside it in the wheel (the .mo files are never committed)."""

import importlib.util
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py


class build_py_with_catalogs(build_py):
    """build_py, then the .mo of every .po copied into the build."""

    def run(self):
        super().run()
        if self.dry_run:
            return
        # scorekeeper/translations/__init__.py needs Babel alone (a build
        # requirement): loaded by its path, without importing Scorekeeper.
        source = Path(__file__).parent / "scorekeeper" / "translations" / "__init__.py"
        spec = importlib.util.spec_from_file_location("scorekeeper_catalogs", source)
        catalogs = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(catalogs)
        built = Path(self.build_lib) / "scorekeeper" / "translations"
        catalogs.compile_catalogs(built, force=True)


setup(
    packages=[
        *find_namespace_packages(
            include=["scorekeeper", "scorekeeper.*"], exclude=["*__pycache__"]
        ),
        "scorekeeper.templates",
        "scorekeeper.static",
        "scorekeeper.docs",
    ],
    cmdclass={"build_py": build_py_with_catalogs},
)
