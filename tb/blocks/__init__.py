"""One folder per RTL block: its cocotb test (``cocotb_<block>.py``) and, where the block
needs one, its Python reference (``ref.py``) and stimulus. The pytest launchers are
``tests/test_<block>.py``."""
