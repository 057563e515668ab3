#!/usr/bin/env python3
"""Writes N corpus titles as `id<TAB>views<TAB>likes<TAB>title` lines (make bench-autocomplete):
the title generator and popularity of infra/corpus (same mix: ~70% Korean, 2-6 words, topic
words first, ~1% shared titles), without generating bodies. Progress goes to stderr."""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "corpus"))
import corpus  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--titles", type=int, required=True)
    p.add_argument("--seed", type=int, default=42)
    args = p.parse_args()
    gen = corpus.Generator(args.seed, args.titles)
    rng = random.Random(f"{args.seed}:autocomplete-titles")
    out = sys.stdout
    started = time.time()
    for i in range(1, args.titles + 1):
        category = gen.vocab.categories.take(rng, 1)[0]
        if rng.random() < 0.01:
            title = gen.shared_titles[int(rng.paretovariate(1.1)) % len(gen.shared_titles)]
        else:
            title = gen._title(rng, category, rng.random() < corpus.KOREAN_SHARE)
        views, likes = gen._popularity(rng)
        out.write(f"{i}\t{views}\t{likes}\t{title}\n")
        if i % 100_000 == 0:
            print(f"  generated {i:,} titles ({time.time() - started:.0f} s)", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
