"""The snippet checker on made-up pages (it must catch drift) and on the
repository's real pages (they must not have drifted)."""

import glob
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_snippets  # noqa: E402

TEST = """\
TEST(X, Y) {
  // --- snippet: make ---
  auto ctx = strata::make_context(settings);
  ctx.step([](auto& proxy) { proxy.create_entity(); });
  // --- end snippet ---
}
"""
FAILING = "int main() {\n  broken();\n}\n"


def page(*blocks):
    return "<!-- snippets: t.cc -->\n\nText.\n\n" + "\n".join(blocks)


def block(label, code, language="cpp"):
    return f"{label}\n```{language}\n{code}\n```\n"


GOOD = block("<!-- snippet: make -->",
             "auto ctx = strata::make_context(settings);\n"
             "ctx.step([](auto& proxy) { proxy.create_entity(); });")


def problems(text, files=None):
    files = files or {"t.cc": TEST, "bad.cc": FAILING}
    return check_snippets.check_page("p.md", text, files.get)


class CheckerTest(unittest.TestCase):

    def test_matching_snippet_passes(self):
        self.assertEqual(problems(page(GOOD)), [])

    def test_changed_line_fails(self):
        drifted = GOOD.replace("create_entity()", "create_entities()")
        self.assertIn("differs", "\n".join(problems(page(drifted))))

    def test_unlabelled_block_fails(self):
        found = problems(page(GOOD, block("", "int x = 0;")))
        self.assertIn("without a label", "\n".join(found))

    def test_other_languages_are_not_checked(self):
        self.assertEqual(problems(page(GOOD, block("", "ls", "sh"))), [])

    def test_unknown_snippet_fails(self):
        found = problems(page(GOOD, block("<!-- snippet: nope -->", "x;")))
        self.assertIn("not marked", "\n".join(found))

    def test_orphan_snippet_fails(self):
        self.assertIn("not shown", "\n".join(problems(page())))

    def test_compile_fail_block(self):
        ok = block("<!-- compile-fail: bad.cc -->", "  broken();")
        self.assertEqual(problems(page(GOOD, ok)), [])
        wrong = block("<!-- compile-fail: bad.cc -->", "  fixed();")
        self.assertIn("not found verbatim", "\n".join(problems(page(GOOD, wrong))))

    def test_unterminated_marker_fails(self):
        files = {"t.cc": TEST.replace("// --- end snippet ---", "")}
        self.assertIn("never ends", "\n".join(problems(page(GOOD), files)))

    def test_fix_rewrites_drifted_snippets_only(self):
        drifted = GOOD.replace("create_entity()", "create_entities()")
        other = block("<!-- compile-fail: bad.cc -->", "  broken();")
        fixed = check_snippets.fix_page(page(drifted, other), {"t.cc": TEST}.get)
        self.assertEqual(fixed, page(GOOD, other))
        self.assertEqual(problems(fixed), [])


class RepositoryTest(unittest.TestCase):

    def test_guide_and_readme_match_their_tests(self):
        pages = ["README.md"] + sorted(glob.glob("docs/guide/*.md"))
        self.assertGreater(len(pages), 5, "guide pages missing from data")
        found = []
        for path in pages:
            found += check_snippets.check_page(
                path, check_snippets.read_file(path), check_snippets.read_file)
        self.assertEqual(found, [], "\n" + "\n".join(found))


if __name__ == "__main__":
    unittest.main()
