"""``cogvis report``: scores, CIs, chance and human levels, reliability and figures from harness outputs.

Reads the result and sample files lmms-eval and evalscope wrote for our benchmarks
(``readers``), recomputes every table with each benchmark's own ``build_report``
(``tables``), adds bootstrap CIs over items (``bootstrap``, ``cells``) and Cronbach's
alpha over subtests (``reliability``), and renders markdown or a self-contained HTML
file with figures (``plots``, ``render_md``, ``render_html``); ``write`` ties them together.
"""
