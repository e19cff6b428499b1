"""六爻 (納甲筮法): hexagram tables and the chart of a cast.

Entry points: :func:`kg.liuyao.chart.cast_chart` (pillars + six line values → :class:`Chart`),
:func:`kg.liuyao.chart.chart_from_inputs` (what the CLI calls), :mod:`kg.liuyao.view` (terminal
layout and JSON), :mod:`kg.liuyao.procedures` (the 《黃金策》 timing procedures, registered on
import). Tables follow docs/liuyao-doctrine.md sections 4 and 7.
"""

from kg.liuyao import procedures  # importing it registers the 《黃金策》 procedures (kg.registry)

__all__ = ["procedures"]
