"""MME-CC: data, subtasks and dimensions, rule pre-check and LLM-judge scoring, reports."""
