"""Unit tests of verify_index's comparisons (make test-verify-index): no stack needed. The
digest test pins the SQL side to the app's IndexedContent.digest definition through Python's
hashlib; VerifyIndexIT-style checks against the real nodes run in the ITs (Stack.verifyIndex)."""
import hashlib
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verify_index as vi  # noqa: E402


def digest(title, content, category):
    return hashlib.sha256(f"{title}\n{content}\n{'' if category is None else category}\n".encode()).hexdigest()


DB = {1: (3, digest("가", "본문", 7)), 2: (1, digest("b", "x", None)), 3: (2, digest("c", "y", 1))}


class CompareTest(unittest.TestCase):

    def test_an_index_equal_to_the_database_has_no_differences(self):
        index = {1: 3, 2: 1, 3: 2}
        self.assertEqual(vi.compare(DB, index), (0, 0, 0))
        ids = vi.same_version(DB, index)
        digests = {i: d for i, (_, d) in DB.items()}
        self.assertEqual(vi.content_differences(DB, digests, ids), [])

    def test_missing_stale_and_ghost_are_counted_from_versions(self):
        self.assertEqual(vi.compare(DB, {1: 2, 3: 2, 9: 1}), (1, 1, 1))

    def test_same_version_with_other_text_is_a_content_difference(self):
        index = {1: 3, 2: 1, 3: 2}
        digests = {1: DB[1][1], 2: digest("b", "old text", None), 3: DB[3][1]}
        self.assertEqual(vi.compare(DB, index), (0, 0, 0))  # versions alone say nothing is wrong
        self.assertEqual(vi.content_differences(DB, digests, vi.same_version(DB, index)), [2])

    def test_a_digest_the_node_did_not_return_is_a_difference(self):
        self.assertEqual(vi.content_differences(DB, {1: DB[1][1]}, [1, 3]), [3])

    def test_only_posts_at_the_database_version_are_compared_by_content(self):
        self.assertEqual(vi.same_version(DB, {1: 3, 2: 5}), [1])

    def test_clean_needs_zero_content_differences_unless_versions_only(self):
        versions_clean = {"node1": (3, 0, 0, 0, 1, 0), "node2": (3, 0, 0, 0, 0, 0)}
        self.assertFalse(vi.clean(versions_clean))
        self.assertTrue(vi.clean(versions_clean, with_content=False))
        self.assertTrue(vi.clean({"node1": (3, 0, 0, 0, 0, 0)}))
        self.assertFalse(vi.clean({"node1": OSError("down")}))


if __name__ == "__main__":
    unittest.main()
