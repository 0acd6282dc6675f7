"""The blind read of KP questions (issue 32): ours shuffled with published WebShaper ones.

A reviewer who knows nothing else gets only the question texts, numbered in a shuffled order,
and says which ones a machine made. The key (which number is whose) stays in a separate file
the reviewer never sees; `score` counts how many of ours were picked out, and how many of the
published ones were taken for machine-made.

    python -m bench.kp_blind draw --ours out/shaper_tasks.jsonl \\
        --published ../shared/data/webshaper/webshaper.500.jsonl --n 10 --seed 5656 --out DIR
    python -m bench.kp_blind score --key DIR/key.json --picked 3,7,12

`draw` writes DIR/questions.md (the reviewer's sheet) and DIR/key.json.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path


def _questions(path: Path) -> list[str]:
    """The question texts of a JSONL file of tasks (``question`` field), quotes the published
    file wraps some questions in taken off, in file order."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            text = str(json.loads(line)["question"]).strip()
            if len(text) >= 2 and text[0] == text[-1] == '"':
                text = text[1:-1].strip()
            out.append(text)
    return out


def draw(ours: list[str], published: list[str], n: int, seed: int) -> list[tuple[str, str]]:
    """`n` of each, drawn and shuffled by `seed`: [(source, text)] in the sheet's order.

    >>> sheet = draw(["a", "b", "c"], ["x", "y", "z"], 2, 1)
    >>> sorted(s for s, _ in sheet), len({t for _, t in sheet})
    (['ours', 'ours', 'published', 'published'], 4)
    """
    rng = random.Random(seed)
    sheet = [("ours", q) for q in rng.sample(ours, min(n, len(ours)))]
    sheet += [("published", q) for q in rng.sample(published, min(n, len(published)))]
    rng.shuffle(sheet)
    return sheet


def score(key: list[str], picked: set[int]) -> dict[str, int]:
    """How many of ours the reviewer picked as machine-made (numbers from 1), and how many
    published ones they picked wrongly.

    >>> score(["ours", "published", "ours"], {1, 2})
    {'ours': 2, 'ours_picked': 1, 'published': 1, 'published_picked': 1}
    """
    ours = [i for i, s in enumerate(key, 1) if s == "ours"]
    published = [i for i, s in enumerate(key, 1) if s == "published"]
    return {
        "ours": len(ours),
        "ours_picked": len(picked & set(ours)),
        "published": len(published),
        "published_picked": len(picked & set(published)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("draw", help="write the reviewer's sheet and the key")
    d.add_argument("--ours", type=Path, required=True)
    d.add_argument("--published", type=Path, required=True)
    d.add_argument("--n", type=int, default=10)
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("score", help="count the reviewer's picks against the key")
    s.add_argument("--key", type=Path, required=True)
    s.add_argument("--picked", required=True, help="comma-separated numbers the reviewer picked")
    args = parser.parse_args()
    if args.command == "draw":
        sheet = draw(_questions(args.ours), _questions(args.published), args.n, args.seed)
        args.out.mkdir(parents=True, exist_ok=True)
        lines = [f"{i}. {text}" for i, (_, text) in enumerate(sheet, 1)]
        (args.out / "questions.md").write_text("\n\n".join(lines) + "\n", encoding="utf-8")
        (args.out / "key.json").write_text(json.dumps([s for s, _ in sheet]), encoding="utf-8")
        print(f"wrote {len(sheet)} questions to {args.out / 'questions.md'}")
    else:
        key = json.loads(args.key.read_text(encoding="utf-8"))
        picked = {int(x) for x in args.picked.split(",") if x.strip()}
        print(json.dumps(score(key, picked)))


if __name__ == "__main__":
    main()
