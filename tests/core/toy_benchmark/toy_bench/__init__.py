"""A toy benchmark in a package of its own: registered with cogvis_tasks through an entry point only."""
