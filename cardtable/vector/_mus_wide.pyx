# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# The wide build of the Mus core (x86-64-v4 with AVX-512 VBMI; setup.py): the same source.
include "_mus.pyx"
