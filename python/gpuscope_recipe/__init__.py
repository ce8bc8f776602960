"""The Dask driver of `gpuscope recipe` (see driver.py and docs/recipes.md)."""
