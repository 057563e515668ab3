#!/usr/bin/env python3
"""Exports the Korean and English word frequencies that the corpus generator samples from.

Run ONCE (the output is committed in infra/corpus/data/), in a throwaway virtualenv:

    venv=$(mktemp -d) && python3 -m venv "$venv" && "$venv/bin/pip" install wordfreq==3.1.1
    "$venv/bin/python" infra/corpus/export_wordlists.py

Source: the `wordfreq` package (PyPI, version 3.1.1) by Robyn Speer. Its code is Apache-2.0;
its word lists are CC BY-SA 4.0 and derive from Wikipedia, OpenSubtitles, Google Books,
Reddit, Twitter, the Leeds Internet Corpus, NewsCrawl and others (see wordfreq's README).
The exported files are therefore CC BY-SA 4.0 as well: see data/LICENSE-wordlists.md.

What is kept:
- Korean: every entry of wordfreq's Korean list made only of Hangul syllables (about 27k).
  wordfreq segments Korean into morphemes, so particles and endings are in the list too;
  the generator tells them apart (see corpus.py) and re-attaches them to words.
- English: the 40,000 most frequent entries made only of ASCII letters.
Each line is `word<TAB>frequency per billion words` (an integer), most frequent first.
"""
import os
import re

import wordfreq

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data")


def export(lang, pattern, limit, name):
    freqs = wordfreq.get_frequency_dict(lang, "best")
    rows = sorted(((w, f) for w, f in freqs.items() if re.fullmatch(pattern, w)), key=lambda x: (-x[1], x[0]))
    rows = rows[:limit] if limit else rows
    path = os.path.join(OUT, name)
    with open(path, "w", encoding="utf-8") as out:
        out.write(f"# wordfreq {wordfreq.__dict__.get('__version__', '3.1.1')} '{lang}' list, CC BY-SA 4.0 "
                  f"(see LICENSE-wordlists.md); word<TAB>frequency per 1e9 words\n")
        for w, f in rows:
            out.write(f"{w}\t{max(1, round(f * 1e9))}\n")
    print(f"{path}: {len(rows)} words")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    export("ko", r"[가-힣]+", None, "words-ko.tsv")
    export("en", r"[a-z]+", 40000, "words-en.tsv")
