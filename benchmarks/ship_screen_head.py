"""Write the learned head `eval cv` fitted on every dev item into the package's data.

Run from the repository root after a cross-validation run::

    .venv/bin/skill-memory eval cv --data ../shared/eval --component poisoning --json > cv.json
    .venv/bin/python benchmarks/ship_screen_head.py cv.json

It copies `fitted.head_weights`, `head_bias` and `head_threshold` of the poisoning component
(the parameters fitted on every item, as the cross-validation's procedure fits them in each
fold) into `memory/screen/data/head.toml`, with the model they belong to.
"""

from __future__ import annotations

import argparse
import json
import os

from fireworks_skill_memory.models.bundled import DEFAULT_MODEL_NAME

TARGET = os.path.join("memory", "screen", "data", "head.toml")


def head_toml(fitted: dict[str, object], model: str) -> str:
    """The head file's text."""
    weights, bias, cut = fitted["head_weights"], fitted["head_bias"], fitted["head_threshold"]
    assert isinstance(weights, list) and weights, "the run fitted no head"
    assert isinstance(bias, float) and isinstance(cut, float)
    rows = [", ".join(f"{w:.6f}" for w in weights[i : i + 8]) for i in range(0, len(weights), 8)]
    header = (
        "# The learned head of the poisoning screen: logistic regression over the embedding,\n"
        "# fitted by `skill-memory eval cv --component poisoning` on every dev item, the corpus\n"
        "# and the written training set (memory/evaluation/data/poison_training.jsonl).\n"
        "# Written by benchmarks/ship_screen_head.py; do not edit by hand.\n"
    )
    body = "".join(f"    {row},\n" for row in rows)
    values = f"bias = {bias:.6f}\nthreshold = {cut:.6f}\n"
    return f'{header}model = "{model}"\n{values}weights = [\n{body}]\n'


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cv_json", help="the --json output of `eval cv --component poisoning`")
    parser.add_argument("--model", default=DEFAULT_MODEL_NAME)
    args = parser.parse_args()
    with open(args.cv_json, encoding="utf-8") as handle:
        fitted = json.load(handle)["poisoning"]["fitted"]
    text = head_toml(fitted, args.model)
    tmp = TARGET + ".tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, TARGET)
    print(f"wrote {TARGET}: {len(fitted['head_weights'])} weights, cut {fitted['head_threshold']}")


if __name__ == "__main__":
    main()
