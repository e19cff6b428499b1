"""Views of retrieval results: a terminal report and JSON."""

from __future__ import annotations

import json

from kg.match import Applicable
from kg.output import terminal_safe

STATUS = {
    "applies": "applies",
    "overridden": "overridden by an exception",
    "consider": "consider (text only)",
}


def render_text(results: list[Applicable]) -> str:
    if not results:
        return "No rule applies to this reading."
    counts = {s: sum(a.status == s for a in results) for s in STATUS}
    lines = [", ".join(f"{n} {STATUS[s]}" for s, n in counts.items() if n), ""]
    for a in results:
        head = f"{a.polarity or '·'}  {a.wording or ''}  — {a.gloss or ''}"
        if a.status != "applies":
            head += f"   [{STATUS[a.status]}]"
        lines.append(head)
        if a.binding_labels:
            lines.append(
                "    because " + "; ".join(f"{v} = {label}" for v, label in a.binding_labels.items())
            )
        for name, value in a.parameters.items():
            lines.append(f"    {name}: {value}")
        if a.quotes:
            lines += [f"    「{q['quote']}」 ¶{q['paragraph']}" for q in a.quotes]
        else:
            lines.append(f"    「{a.quote}」")
        lines.append(
            f"    《{a.work_title}》{a.section} ¶{a.paragraph} · {a.urn} · topic {a.topic} · rule {a.rule_id}"
        )
        lines.append("")
    return terminal_safe("\n".join(lines).rstrip() + "\n")


def render_json(results: list[Applicable]) -> str:
    return json.dumps([a.as_dict() for a in results], ensure_ascii=False, indent=2)
