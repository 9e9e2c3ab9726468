"""Block tests of prionic_flowhash (rtl/prionic_flowhash*.v)."""
