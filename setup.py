"""The package list, found rather than written (everything else is in
pyproject.toml): every folder of scorekeeper/, each game's templates/ and
static/ among them, and the shared templates/, static/ and docs/ at the top of
the repository, which pyproject.toml maps into the package."""

from setuptools import find_namespace_packages, setup

setup(
    packages=[
        *find_namespace_packages(
            include=["scorekeeper", "scorekeeper.*"], exclude=["*__pycache__"]
        ),
        "scorekeeper.templates",
        "scorekeeper.static",
        "scorekeeper.docs",
    ]
)
