"""lmms-eval adapter: task hooks, baseline models and the task-index compatibility layer.

Everything here translates between lmms-eval and the core; no benchmark logic.
"""
