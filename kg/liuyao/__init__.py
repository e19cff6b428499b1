"""六爻 (納甲筮法): hexagram tables and the chart of a cast.

Entry points: :func:`kg.liuyao.chart.cast_chart` (pillars + six line values → :class:`Chart`),
:func:`kg.liuyao.chart.chart_from_inputs` (what the CLI calls), :mod:`kg.liuyao.view` (terminal
layout and JSON). Tables follow docs/liuyao-doctrine.md §4.
"""
