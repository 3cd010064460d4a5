"""Checks that the C++ in the guide is the C++ the tests compile and run.

Every fenced C++ block (```cpp or ```c++) in a checked Markdown page must be
labelled by the line right before it:

  <!-- snippet: NAME -->          the block must equal, line for line, the
                                  text between `// --- snippet: NAME ---` and
                                  `// --- end snippet ---` in the page's test
                                  file (common indentation and trailing blanks
                                  ignored, so a snippet may sit inside a
                                  function body);
  <!-- compile-fail: PATH -->     the block must appear verbatim in PATH, a
                                  source that a cc_compile_fail_test proves
                                  does not compile.

A page names its test file once, anywhere: `<!-- snippets: PATH -->`. Every
snippet marked in a test file must be shown by its page (no orphans), and
every name is used once. Paths are relative to the workspace root.

  check_snippets.py PAGE.md...     exits 1 and lists every problem
  check_snippets.py --fix PAGE.md...
                                   first rewrites each labelled snippet block
                                   with its test's text (after a rename or a
                                   reformat of the tests), then checks
"""

import re
import sys
import textwrap

SNIPPET_LABEL = re.compile(r"^<!-- snippet: ([A-Za-z0-9_-]+) -->$")
FAIL_LABEL = re.compile(r"^<!-- compile-fail: (\S+) -->$")
PAGE_TESTS = re.compile(r"^<!-- snippets: (\S+) -->$", re.MULTILINE)
FENCE_OPEN = re.compile(r"^```(\S*)\s*$")
MARK_BEGIN = re.compile(r"^\s*// --- snippet: ([A-Za-z0-9_-]+) ---\s*$")
MARK_END = re.compile(r"^\s*// --- end snippet ---\s*$")
CPP = ("cpp", "c++", "cc", "cxx")


def normalize(text):
    """Dedents and strips trailing whitespace and blank edge lines."""
    lines = [line.rstrip() for line in textwrap.dedent(text).split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def page_blocks(text):
    """(label line, language, code, line number) of each fenced block."""
    lines = text.split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        match = FENCE_OPEN.match(lines[i])
        if not match:
            i += 1
            continue
        start = i
        language = match.group(1).lower()
        i += 1
        body = []
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i])
            i += 1
        label = lines[start - 1].strip() if start > 0 else ""
        blocks.append((label, language, "\n".join(body), start + 1))
        i += 1
    return blocks


def test_snippets(text, path):
    """{name: code} of the marked snippets of a test file; problems."""
    snippets, problems = {}, []
    name, body, begin = None, [], 0
    for number, line in enumerate(text.split("\n"), 1):
        begin_match = MARK_BEGIN.match(line)
        if begin_match:
            if name is not None:
                problems.append(f"{path}:{number}: snippet '{begin_match.group(1)}' "
                                f"starts inside snippet '{name}'")
            name, body, begin = begin_match.group(1), [], number
        elif MARK_END.match(line):
            if name is None:
                problems.append(f"{path}:{number}: end marker without a snippet")
            elif name in snippets:
                problems.append(f"{path}:{begin}: snippet '{name}' marked twice")
            else:
                snippets[name] = normalize("\n".join(body))
            name = None
        elif name is not None:
            body.append(line)
    if name is not None:
        problems.append(f"{path}:{begin}: snippet '{name}' never ends")
    return snippets, problems


def check_page(page_path, page_text, read):
    """Problems of one page; read(path) returns a file's text or None."""
    problems = []
    declared = PAGE_TESTS.findall(page_text)
    snippets, test_path = {}, None
    if len(declared) > 1:
        problems.append(f"{page_path}: names more than one test file")
    if declared:
        test_path = declared[0]
        test_text = read(test_path)
        if test_text is None:
            problems.append(f"{page_path}: test file {test_path} not found")
        else:
            snippets, found = test_snippets(test_text, test_path)
            problems += found
    shown = set()
    for label, language, code, line in page_blocks(page_text):
        if language not in CPP:
            continue
        where = f"{page_path}:{line}"
        snippet = SNIPPET_LABEL.match(label)
        failing = FAIL_LABEL.match(label)
        if snippet:
            name = snippet.group(1)
            if test_path is None:
                problems.append(f"{where}: snippet '{name}' but the page names "
                                "no test file (<!-- snippets: PATH -->)")
            elif name in shown:
                problems.append(f"{where}: snippet '{name}' shown twice")
            elif name not in snippets:
                problems.append(f"{where}: snippet '{name}' is not marked in "
                                f"{test_path}")
            elif normalize(code) != snippets[name]:
                problems.append(f"{where}: snippet '{name}' differs from "
                                f"{test_path}:\n--- page ---\n{normalize(code)}\n"
                                f"--- test ---\n{snippets[name]}")
            shown.add(name)
        elif failing:
            source = read(failing.group(1))
            if source is None:
                problems.append(f"{where}: {failing.group(1)} not found")
            elif normalize(code) not in normalize(source):
                problems.append(f"{where}: block not found verbatim in "
                                f"{failing.group(1)}")
        else:
            problems.append(f"{where}: C++ block without a label (<!-- snippet: "
                            "NAME --> or <!-- compile-fail: PATH -->)")
    for name in sorted(set(snippets) - shown):
        problems.append(f"{test_path}: snippet '{name}' is not shown by {page_path}")
    return problems


def fix_page(page_text, read):
    """page_text with each snippet block replaced by its test's snippet."""
    declared = PAGE_TESTS.findall(page_text)
    test_text = read(declared[0]) if len(declared) == 1 else None
    if test_text is None:
        return page_text
    snippets, _ = test_snippets(test_text, declared[0])
    lines = page_text.split("\n")
    # Last block first, so earlier line numbers stay valid.
    for label, language, code, line in reversed(page_blocks(page_text)):
        snippet = SNIPPET_LABEL.match(label)
        if language in CPP and snippet and snippet.group(1) in snippets:
            body_start = line  # the line after the fence (line is 1-based)
            body_end = body_start + len(code.split("\n")) if code else body_start
            lines[body_start:body_end] = snippets[snippet.group(1)].split("\n")
    return "\n".join(lines)


def read_file(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return None


def main(pages):
    problems, blocks = [], 0
    fix = "--fix" in pages
    pages = [page for page in pages if page != "--fix"]
    for page in pages:
        text = read_file(page)
        if fix and text is not None:
            fixed = fix_page(text, read_file)
            if fixed != text:
                with open(page, "w", encoding="utf-8") as f:
                    f.write(fixed)
    for page in pages:
        text = read_file(page)
        if text is None:
            problems.append(f"{page}: not found")
            continue
        blocks += sum(1 for _, lang, _, _ in page_blocks(text) if lang in CPP)
        problems += check_page(page, text, read_file)
    for problem in problems:
        print(problem)
    if problems:
        print(f"FAIL: {len(problems)} problem(s)")
        return 1
    print(f"PASS: {blocks} C++ blocks in {len(pages)} pages match their tests")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
