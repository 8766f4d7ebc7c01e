"""Code the tests share (imported as ``helpers.<module>``; tests/ is on the path through the root conftest)."""
