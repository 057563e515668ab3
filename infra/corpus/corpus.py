"""Deterministic wiki-page generator: page i of seed s is always the same page.

Words are sampled from real frequencies (data/words-ko.tsv, data/words-en.tsv, exported from
wordfreq by export_wordlists.py). About 70% of pages are Korean, 30% English. Korean text is
built the way Korean is written: content words (nouns mostly) with particles attached by the
batchim rule (서울은, 한강을, 파이썬으로), sentences ending in a predicate (연구했다, 있다), a
sprinkle of English words. Each page belongs to one of the 30 categories and draws part of its
words, and more of its title, from that category's topic list (topics.py).

Shape of the corpus (what the benchmarks rely on):
- titles of 2-6 words; about 1% of pages share their title with other pages (a pool of shared
  titles), and about 1% are near-duplicates of the previous page (same body, a few words changed);
- bodies with a long-tailed (log-normal) length, mean about 2.5 KB of UTF-8;
- creation dates over 2019-01..2025-10, increasing with the page number (ids follow time);
- heavy-tailed views (Pareto) and likes (a small, noisy fraction of views);
- authors drawn from 2,000 seeded users with a Zipf-like skew.
Zipf sampling gives every frequency class: rare terms (<0.1% of pages), medium (0.5-5%) and
high (10-40%); the benchmark picks its query terms by their measured document frequency.

Pages are generated in chunks; chunk k uses its own RNG seeded from (seed, k), so chunks can be
generated in parallel and a load can resume at any chunk boundary.
"""
from array import array
import math
import os
import random

from topics import TOPICS, topic_words


def topic_words_all():
    return {c: topic_words(c) for c in TOPICS}

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")

CHUNK = 2000                   # pages per chunk (one LOAD DATA, one transaction)
AUTHORS = 2000                 # seeded users, ids AUTHOR_ID_BASE + 1 .. + AUTHORS
AUTHOR_ID_BASE = 100_000
KOREAN_SHARE = 0.70
MEAN_BODY_BYTES = 2500
START_EPOCH = 1546300800       # 2019-01-01T00:00:00Z
END_EPOCH = 1761955200         # 2025-11-01T00:00:00Z

# wordfreq segments Korean into morphemes; these frequent ones are particles, endings and
# verb fragments, not words a page would show on their own.
FUNCTION_KO = set("""
에서 으로 습니다 지만 는데 에게 라고 한다 합니다 까지 세요 다고 면서 부터 라는 어서 다는 으면 해서 니까
해야 보다 된다 해요 네요 으며 처럼 아요 한테 는지 도록 라도 다가 다면 아서 인데 거나 는다 어야 해도 인지
려고 라면 은데 인가 이랑 한다고 마다 됩니다 대로 로서 구나 아야 로부터 스럽 잖아 한다는 구요 께서 지요
어도 으니까 군요 는데요 가요 고요 와서 려는 시켜 의해 건데 더니 한데 라구 으로서 으로써 으시 냐고 드립니다
야지 려면 셔서 듯이 든지 에선 텐데 겁니다 봐야 한다면 그렇 이렇 어떻 그러 이러 만들 모르 보이 다니 나오
드리 버리 부르 따르 기다리 만드 다르 느끼 위하 생기 들어가 일어나 마시 이루 시키 당하 알려 보여 보내 만나
위해 대한 대해 통해 따라 같이 이런 그런 어떤 아니 없이 위한 관한 인해 의해 에는 에도 이다 였다 했다 하는
""".split())
ONE_SYLLABLE_NOUNS = set("""
일 말 집 물 돈 눈 손 책 밤 불 꿈 땅 꽃 밥 빛 길 몸 힘 글 뜻 산 왕 옷 술 맛 병 섬 곡 팀 팬 웹 앱 폰 차 문 배 약
방 삶 딸 북 별 역 칼 표 색 빵 강 해 달 봄 법 벽 숲 흙 잎 공 탑 절 성 궁 탕 국 죽 떡 차 개 새 소 말 닭 곰 뱀
""".split())

# (with batchim, without batchim, weight). None for "no particle".
PARTICLES = [
    ("이", "가", 14), ("은", "는", 14), ("을", "를", 18), ("과", "와", 4), ("으로", "로", 7),
    ("에", "에", 11), ("의", "의", 9), ("에서", "에서", 6), ("도", "도", 5), ("만", "만", 2),
    ("까지", "까지", 2), ("부터", "부터", 1), ("에게", "에게", 2), ("처럼", "처럼", 1), ("보다", "보다", 1),
    ("이나", "나", 1), (None, None, 40),
]
HA_ENDINGS = ["했다", "한다", "하는", "하여", "하고", "되었다", "된다", "되는", "할", "합니다", "했습니다", "하였다", "하기", "하며"]
PREDICATES = ["있다", "없다", "있는", "없는", "같은", "많은", "있었다", "좋은", "새로운", "알려져 있다", "불린다",
              "위치한다", "대표적이다", "중요하다", "다양하다", "유명하다", "높다", "크다", "이어진다", "남아 있다",
              "시작되었다", "발전하였다", "사용된다", "포함된다", "이루어진다", "평가된다", "바뀌었다", "만들었다"]
EN_STOP = set("the to and of a in is that it for you i on with was as be this are at have but not by from or "
              "my they we he an his her so all if can just do your what me about will one there has more like "
              "no up out when had were would been who their them she its our our".split())


def _read(name):
    words, freqs = [], []
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            w, n = line.rstrip("\n").split("\t")
            words.append(w)
            freqs.append(int(n))
    return words, freqs


def _has_batchim(word):
    last = word[-1]
    if "가" <= last <= "힣":
        return (ord(last) - 0xAC00) % 28 != 0
    return last.lower() in "lmnr"   # English words read aloud: "Python으로", "Java를" approximations


def _rieul(word):
    last = word[-1]
    return "가" <= last <= "힣" and (ord(last) - 0xAC00) % 28 == 8


class Sampler:
    """Weighted sampling through a quantile table of 2**bits slots: one random draw and one
    array lookup per sample (a bisect per sample was the generator's bottleneck). With 22 bits
    even the rarest exported word (about 1e-6 of the mass) keeps several slots."""

    def __init__(self, items, weights, bits=22):
        self.items = items
        self.bits = bits
        size = 1 << bits
        total = float(sum(weights))
        table = array("I")
        acc, filled = 0.0, 0
        for i, w in enumerate(weights):
            acc += w
            upto = min(size, round(acc / total * size))
            if upto > filled:
                table.extend([i] * (upto - filled))
                filled = upto
        table.extend([len(items) - 1] * (size - filled))
        self.table = table

    def take(self, rng, k):
        items, table, bits, draw = self.items, self.table, self.bits, rng.getrandbits
        return [items[table[draw(bits)]] for _ in range(k)]

    def take_index(self, rng, k):
        table, bits, draw = self.table, self.bits, rng.getrandbits
        return [table[draw(bits)] for _ in range(k)]


class Vocabulary:
    def __init__(self):
        ko, ko_f = _read("words-ko.tsv")
        en, en_f = _read("words-en.tsv")
        content = [(w, f) for w, f in zip(ko, ko_f)
                   if w not in FUNCTION_KO and (len(w) >= 2 or w in ONE_SYLLABLE_NOUNS)]
        self.ko = Sampler([w for w, _ in content], [f for _, f in content])
        # Titles favour the common part of the vocabulary (page names are rarely obscure words).
        self.ko_title = Sampler([w for w, _ in content[:8000]], [math.sqrt(f) for _, f in content[:8000]])
        self.en = Sampler(en, en_f)
        en_content = [(w, f) for w, f in zip(en, en_f) if w not in EN_STOP and len(w) >= 3]
        self.en_content = Sampler([w for w, _ in en_content], [f for _, f in en_content])
        self.en_title = Sampler([w for w, _ in en_content[:8000]], [math.sqrt(f) for _, f in en_content[:8000]])
        self.particles = Sampler(list(range(len(PARTICLES))), [p[2] for p in PARTICLES], bits=10)
        self.batchim = {}
        # Every content word with every particle, precomputed: a page is then index lookups.
        self.forms = [[self.attach(w, p) for p in range(len(PARTICLES))] for w in self.ko.items]
        self.topics_forms = {c: [[self.attach(w, p) for p in range(len(PARTICLES))] for w in ws]
                             for c, ws in topic_words_all().items()}
        self.en_particles = ["", "", "", "", "를", "의", "에서", "는", "로"]
        self.topics = {c: topic_words(c) for c in TOPICS}
        self.topics_ko = {c: [w for w in ws if not w.isascii()] for c, ws in self.topics.items()}
        self.topics_en = {c: [w for w in ws if w.isascii()] for c, ws in self.topics.items()}
        # Categories are not equally popular: a Zipf-like skew over the 30 ids.
        cats = list(TOPICS)
        self.categories = Sampler(cats, [1.0 / (1 + 0.15 * i) for i in range(len(cats))], bits=16)
        self.authors = Sampler(list(range(1, AUTHORS + 1)), [1.0 / (i ** 0.8) for i in range(1, AUTHORS + 1)], bits=18)

    def attach(self, word, particle_index):
        with_b, without_b, _ = PARTICLES[particle_index]
        if with_b is None:
            return word
        b = self.batchim.get(word)
        if b is None:
            b = self.batchim[word] = _has_batchim(word)
        if with_b == "으로" and _rieul(word):
            return word + "로"
        return word + (with_b if b else without_b)


class Page:
    __slots__ = ("title", "content", "category_id", "author_id", "views", "likes", "created")

    def __init__(self, title, content, category_id, author_id, views, likes, created):
        self.title, self.content, self.category_id = title, content, category_id
        self.author_id, self.views, self.likes, self.created = author_id, views, likes, created


class Generator:
    def __init__(self, seed, total_pages):
        self.seed = seed
        self.total = max(1, total_pages)
        self.vocab = Vocabulary()
        rng = random.Random(f"{seed}:shared-titles")
        self.shared_titles = [self._title(rng, self.vocab.categories.take(rng, 1)[0], rng.random() < KOREAN_SHARE)
                              for _ in range(max(20, min(5000, self.total // 200)))]

    # --- one chunk -------------------------------------------------------------------------
    def chunk(self, k):
        """Pages [k * CHUNK, (k + 1) * CHUNK) clipped to the total, in order."""
        rng = random.Random(f"{self.seed}:chunk:{k}")
        first, last = k * CHUNK, min(self.total, (k + 1) * CHUNK)
        pages, previous = [], None
        for i in range(first, last):
            page = self._page(rng, i, previous)
            pages.append(page)
            previous = page
        return pages

    def _page(self, rng, i, previous):
        v = self.vocab
        if previous is not None and rng.random() < 0.01:
            # Near-duplicate: the previous page again, lightly edited (mirrors, forks, copies).
            return Page(previous.title if rng.random() < 0.5 else previous.title + " (" + str(rng.randint(2, 9)) + ")",
                        self._edit(rng, previous.content), previous.category_id,
                        v.authors.take(rng, 1)[0] + AUTHOR_ID_BASE, *self._popularity(rng), self._created(rng, i))
        category = v.categories.take(rng, 1)[0]
        korean = rng.random() < KOREAN_SHARE
        if rng.random() < 0.01:
            title = self.shared_titles[int(rng.paretovariate(1.1)) % len(self.shared_titles)]
        else:
            title = self._title(rng, category, korean)
        target = min(200_000, int(rng.lognormvariate(math.log(MEAN_BODY_BYTES) - 0.5, 1.0)) + 80)
        body = self._body_ko(rng, category, target) if korean else self._body_en(rng, category, target)
        return Page(title, body, category, v.authors.take(rng, 1)[0] + AUTHOR_ID_BASE,
                    *self._popularity(rng), self._created(rng, i))

    # --- fields ----------------------------------------------------------------------------
    def _title(self, rng, category, korean):
        v = self.vocab
        n = rng.choice((2, 2, 3, 3, 3, 4, 4, 5, 6))
        topical = v.topics_ko[category] if korean else (v.topics_en[category] or v.topics_ko[category])
        words = []
        if rng.random() < 0.6:
            words.append(rng.choice(topical))
        pool = v.ko_title if korean else v.en_title
        words += pool.take(rng, n - len(words))
        if korean and rng.random() < 0.1:
            words[rng.randrange(len(words))] = v.en_title.take(rng, 1)[0].capitalize()
        rng.shuffle(words)
        title = " ".join(words)
        return title if korean else title.title()

    def _body_ko(self, rng, category, target_bytes):
        # One batch of samples per page (not per word): this loop is the generator's hot path.
        v = self.vocab
        n = max(6, int(target_bytes / 11.7))
        words = v.ko.take_index(rng, n)
        parts = v.particles.take(rng, n)
        forms = v.forms
        eojeols = [forms[w][p] for w, p in zip(words, parts)]
        topical = v.topics_forms[category]
        for _ in range(int(n * 0.09 + rng.random())):
            eojeols[rng.randrange(n)] = topical[rng.randrange(len(topical))][parts[rng.randrange(n)]]
        en = v.en_content.take(rng, int(n * 0.03 + rng.random()))
        for w in en:
            eojeols[rng.randrange(n)] = w + v.en_particles[rng.randrange(len(v.en_particles))]
        out, i, sentences = [], 0, 0
        randint, random_ = rng.randint, rng.random
        while i < n:
            j = min(n, i + randint(5, 13))
            if random_() < 0.5:
                predicate = v.ko.items[v.ko.take_index(rng, 1)[0]] + HA_ENDINGS[randint(0, len(HA_ENDINGS) - 1)]
            else:
                predicate = PREDICATES[randint(0, len(PREDICATES) - 1)]
            sentences += 1
            out.append(" ".join(eojeols[i:j]) + " " + predicate + (".\n\n" if sentences % 4 == 0 and j < n else ". "))
            i = j
        return "".join(out).strip()

    def _body_en(self, rng, category, target_bytes):
        v = self.vocab
        n = max(8, int(target_bytes / 5.6))
        words = v.en.take(rng, n)
        topical = v.topics_en[category] or v.topics[category]
        for _ in range(int(n * 0.05 + rng.random())):
            words[rng.randrange(n)] = topical[rng.randrange(len(topical))]
        korean = v.topics[category]
        for _ in range(int(n * 0.02 + rng.random())):
            words[rng.randrange(n)] = korean[rng.randrange(len(korean))]   # a Korean topic word in English text
        out, i, sentences = [], 0, 0
        randint = rng.randint
        while i < n:
            j = min(n, i + randint(8, 20))
            sentence = " ".join(words[i:j])
            sentences += 1
            out.append(sentence[:1].upper() + sentence[1:] + (".\n\n" if sentences % 4 == 0 and j < n else ". "))
            i = j
        return "".join(out).strip()

    def _edit(self, rng, content):
        words = content.split(" ")
        for _ in range(max(1, len(words) // 100)):
            words[rng.randrange(len(words))] = self.vocab.ko.take(rng, 1)[0]
        return " ".join(words)

    @staticmethod
    def _popularity(rng):
        views = int(20 * rng.paretovariate(1.15)) - 20 + rng.randint(0, 30)
        views = min(views, 50_000_000)
        likes = int(views * rng.betavariate(1.2, 40))
        return views, likes

    def _created(self, rng, i):
        span = END_EPOCH - START_EPOCH
        t = START_EPOCH + span * (i + rng.random()) / self.total + rng.uniform(-86400, 86400)
        return min(END_EPOCH - 1, max(START_EPOCH, t))


def chunks_for(total):
    return (total + CHUNK - 1) // CHUNK
