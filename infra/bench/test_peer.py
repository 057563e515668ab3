"""Offline checks of the peer harness (infra/bench/peer.py): no OpenSearch, no stack, milliseconds.

    cd infra/bench && python3 -m unittest test_peer      (make test-peer; part of make unit-test)
"""
import json
import random
import unittest

import peer


class IndexBody(unittest.TestCase):
    def test_analysis_matches_ours(self):
        body = peer.index_body(["세종시 세종 시"])
        analysis = body["settings"]["analysis"]
        tok = analysis["tokenizer"]["ko"]
        self.assertEqual(tok["type"], "nori_tokenizer")
        self.assertEqual(tok["decompound_mode"], "mixed")
        self.assertEqual(tok["user_dictionary_rules"], ["세종시 세종 시"])
        stop = set(analysis["filter"]["ko_pos"]["stoptags"])
        # KoreanAnalysis.STOP_TAGS: Lucene's defaults minus IC and MAG, plus VCP, VCN, VX, NNB.
        self.assertTrue({"VCP", "VCN", "VX", "NNB", "JKS", "EF"} <= stop)
        self.assertFalse({"IC", "MAG", "NNG"} & stop)
        props = body["mappings"]["properties"]
        self.assertEqual(props["content"]["index_options"], "offsets")
        self.assertEqual(props["categoryId"]["type"], "keyword")
        self.assertEqual(props["createdAt"]["type"], "date")
        self.assertEqual(props["popularity"]["type"], "rank_feature")

    def test_user_dictionary_is_the_apps(self):
        rules = peer.user_dictionary_rules()
        self.assertTrue(rules)
        self.assertFalse(any(r.startswith("#") or not r.strip() for r in rules))


class Query(unittest.TestCase):
    def test_every_word_required_title_boosted(self):
        q = peer.os_query("서울 한강", now_ms=0)
        must = q["query"]["bool"]["must"]
        self.assertEqual(len(must), 2)
        title = must[0]["bool"]["should"][0]["match"]["title"]
        self.assertEqual((title["query"], title["boost"]), ("서울", peer.TITLE_BOOST))
        self.assertEqual(q["size"], 10)
        self.assertIn("content", q["highlight"]["fields"])
        self.assertEqual(q["aggs"]["categories"]["terms"]["field"], "categoryId")
        self.assertNotIn("filter", q["query"]["bool"])

    def test_phrase_and_category(self):
        q = peer.os_query('"서울 한강"  ', category=7, now_ms=0)
        must = q["query"]["bool"]["must"]
        self.assertEqual(len(must), 1)
        self.assertEqual(must[0]["bool"]["should"][1]["match_phrase"]["content"], "서울 한강")
        self.assertEqual(q["query"]["bool"]["filter"], [{"term": {"categoryId": "7"}}])

    def test_trailing_spaces_change_nothing_but_the_text(self):
        self.assertEqual(peer.os_query("서울", now_ms=0), peer.os_query("서울" + " " * 9, now_ms=0))
        self.assertNotEqual(peer.ours_path("서울"), peer.ours_path("서울 "))
        self.assertIn("categoryId=3", peer.ours_path("a", 3))

    def test_ranking_boosts(self):
        should = json.dumps(peer.os_query("a", now_ms=0)["query"]["bool"]["should"])
        self.assertIn('"pivot": 24', should)
        self.assertIn('"pivot": "365d"', should)


class Helpers(unittest.TestCase):
    def test_classes(self):
        self.assertEqual(peer.classify(0.0005, 50, 100_000), "rare")
        self.assertIsNone(peer.classify(0.00001, 1, 100_000))   # on one page only: not a query anyone types
        self.assertEqual(peer.classify(0.01, 1000, 100_000), "medium")
        self.assertEqual(peer.classify(0.2, 20_000, 100_000), "high")
        self.assertIsNone(peer.classify(0.07, 7000, 100_000))

    def test_phrase_of_adjacent_words(self):
        p = peer.phrase_of("서울은 크다. 한강을 건넜다", random.Random(1))
        a, b = p.strip('"').split()
        words = ["서울은", "크다", "한강을", "건넜다"]
        self.assertEqual(words.index(b), words.index(a) + 1)
        self.assertIsNone(peer.phrase_of("하나", random.Random(1)))

    def test_best_under_budget(self):
        levels = [{"kind": "os", "qps": 50, "p95": 40, "errors": 0},
                  {"kind": "os", "qps": 90, "p95": 120, "errors": 0},
                  {"kind": "os", "qps": 70, "p95": 80, "errors": 2},
                  {"kind": "ours", "qps": 300, "p95": 99, "errors": 0}]
        self.assertEqual(peer.best_under(levels, "os")["qps"], 50)
        self.assertEqual(peer.best_under(levels, "ours")["qps"], 300)

    def test_popularity_positive_and_monotone(self):
        self.assertGreaterEqual(peer.popularity_bucket(0, 0), 1.0)
        self.assertLess(peer.popularity_bucket(10, 0), peer.popularity_bucket(1000, 5))


class SearchNodesMix(unittest.TestCase):
    """make bench-search-nodes (search_nodes.py) reuses this harness' client and request path."""

    def test_the_mix_is_fixed_by_its_seed_and_holds_every_class(self):
        import search_nodes
        a, b = search_nodes.requests(7), search_nodes.requests(7)
        self.assertEqual(a, b)
        self.assertNotEqual(a, search_nodes.requests(8))
        counts = {c: sum(1 for r in a if r[0] == c) for c in peer.CLASSES}
        self.assertEqual(set(counts.values()), {100}, counts)
        self.assertTrue(all(r[2] is not None for r in a if r[0] == "category filter"))

    def test_every_request_text_is_new_but_analyses_the_same(self):
        import urllib.parse
        import search_nodes
        plain = peer.ours_path
        try:
            search_nodes.unique_texts()
            paths = [peer.ours_path("서울 여행") for _ in range(5000)]
        finally:
            peer.ours_path = plain
        self.assertEqual(len(set(paths)), len(paths))
        texts = {urllib.parse.parse_qs(urllib.parse.urlsplit(p).query, keep_blank_values=True)["q"][0].strip() for p in paths}
        self.assertEqual(texts, {"서울 여행"})


if __name__ == "__main__":
    unittest.main()
