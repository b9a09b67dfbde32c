"""dicetables query library: game definitions, verified artifact reading, play-time decisions.

Depends on numpy, zarr and h5py only; it never imports `pipeline`.
"""

__version__ = "0.1.0"
