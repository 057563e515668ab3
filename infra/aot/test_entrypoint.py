#!/usr/bin/env python3
"""Unit tests of the app container's entrypoint (app/docker-entrypoint.sh): which AOT cache the
JVM gets, when a finished training run's cache is moved into place, and that other images'
caches are removed. A stand-in `java` on PATH prints the options it was given; no Docker engine.

    python3 infra/aot/test_entrypoint.py     (part of make test-tools)
"""
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENTRYPOINT = os.path.join(ROOT, "app", "docker-entrypoint.sh")
BUILD = "0123456789abcdef-jdk25.0.3+9-LTS"


class EntrypointTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        d = self.tmp.name
        self.aot = os.path.join(d, "aot")
        self.cache = os.path.join(self.aot, BUILD + ".aot")
        self.build_id = os.path.join(d, "build-id")
        with open(self.build_id, "w") as f:
            f.write(BUILD + "\n")
        bindir = os.path.join(d, "bin")
        os.mkdir(bindir)
        java = os.path.join(bindir, "java")
        with open(java, "w") as f:
            f.write('#!/bin/sh\nfor a in "$@"; do echo "$a"; done\n')
        os.chmod(java, 0o755)
        self.env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"], JAVA_OPTS="-Xmx1g",
                        HANWIKI_AOT_DIR=self.aot, HANWIKI_BUILD_ID_FILE=self.build_id)

    def run_entrypoint(self, **env):
        out = subprocess.run(["sh", ENTRYPOINT, "--server.port=1"], env=dict(self.env, **env),
                             capture_output=True, text=True, check=True)
        return out.stdout.split("\n")[:-1]

    def write(self, path, content=b"cache"):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(content)

    def test_without_a_cache_the_jvm_starts_plain(self):
        args = self.run_entrypoint()
        self.assertEqual(["-Xmx1g", "--enable-native-access=ALL-UNNAMED", "-jar", "/opt/hanwiki/app/hanwiki.jar",
                          "--server.port=1"], args)

    def test_the_cache_of_this_build_is_used(self):
        self.write(self.cache)
        self.assertIn("-XX:AOTCache=" + self.cache, self.run_entrypoint())

    def test_a_training_run_records_beside_the_cache_and_logs_aot_errors_only(self):
        self.write(self.cache)
        args = self.run_entrypoint(HANWIKI_AOT_TRAIN="1")
        self.assertIn("-XX:AOTCacheOutput=" + self.cache + ".training", args)
        self.assertIn("-Xlog:aot=error", args)
        self.assertFalse(any(a.startswith("-XX:AOTCache=") for a in args))

    def test_a_finished_training_run_is_moved_into_place_and_used(self):
        self.write(self.cache + ".training", b"trained")
        args = self.run_entrypoint()
        self.assertIn("-XX:AOTCache=" + self.cache, args)
        with open(self.cache, "rb") as f:
            self.assertEqual(b"trained", f.read())
        self.assertFalse(os.path.exists(self.cache + ".training"))

    def test_an_unfinished_training_run_is_never_used(self):
        # The JVM removes the .config file once it has written the whole cache.
        self.write(self.cache + ".training", b"half")
        self.write(self.cache + ".training.config", b"config")
        args = self.run_entrypoint()
        self.assertFalse(any(a.startswith("-XX:AOTCache") for a in args))
        self.assertFalse(os.path.exists(self.cache))

    def test_other_images_caches_are_removed(self):
        other = os.path.join(self.aot, "fedcba9876543210-jdk25.0.2+1-LTS.aot")
        self.write(other)
        self.write(self.cache)
        self.run_entrypoint()
        self.assertFalse(os.path.exists(other))
        self.assertTrue(os.path.exists(self.cache))

    def test_hanwiki_aot_0_turns_the_cache_off(self):
        self.write(self.cache)
        args = self.run_entrypoint(HANWIKI_AOT="0", HANWIKI_AOT_TRAIN="1")
        self.assertFalse(any("AOT" in a for a in args))


if __name__ == "__main__":
    unittest.main()
