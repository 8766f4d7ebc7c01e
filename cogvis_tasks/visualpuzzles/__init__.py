"""VisualPuzzles: data, the paper's direct and CoT prompts, answer parsing, reports."""
