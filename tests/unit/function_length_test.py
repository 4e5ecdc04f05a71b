#!/usr/bin/python3
"""No function of the engine (engine/src) or the command line (apps/logagg) is longer than 80 lines,
but the block parser's state machine (walk_container in parse/block_parser.cc), which walks a line's
containers token by token and reads best whole.

  function_length_test.py SOURCE_DIR

Each file is read with a small lexer (comments, string and character literals and raw strings
skipped) that follows the braces: a function is a brace block opened at namespace scope (not inside
a class, a function or an initializer) whose head, the text since the previous ';', '{' or '}',
holds a parameter list and is no namespace, class, struct, enum or union. Its lines run from its
head's first line to its closing brace. Functions defined inside a class body are measured as part
of nothing (they are short by habit; a long one belongs outside the class anyway).
"""
import os
import re
import sys

LIMIT = 80
EXEMPT = {("engine/src/parse/block_parser.cc", "walk_container")}
NOT_A_FUNCTION = re.compile(r"^\s*(template\s*<.*>\s*)?(namespace|class|struct|enum|union|extern)\b", re.S)


def functions(text):
    """(name, first line, last line) of each function defined at namespace scope in `text`."""
    found, stack = [], []  # stack: for each open brace, whether it opens a namespace
    head, head_start = "", None  # the text since the last ';', '{' or '}', and its first line
    line, i, n = 1, 0, len(text)

    def skip_to(end):  # past text[i:end], counting its lines
        nonlocal i, line
        line += text.count("\n", i, end)
        i = end

    while i < n:
        c = text[i]
        line_start = text.rfind("\n", 0, i) + 1
        if c == "#" and not text[line_start:i].strip():  # a preprocessor line, with its continuations
            end = i
            while True:
                end = text.find("\n", end)
                if end < 0 or text[end - 1] != "\\":
                    break
                end += 1
            skip_to(end if end >= 0 else n)
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            skip_to(end if end >= 0 else n)
            continue
        if text.startswith("/*", i):
            skip_to(text.find("*/", i + 2) + 2)
            continue
        if text.startswith('R"', i) and not (i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")):
            delimiter = text[i + 2:text.find("(", i)]
            skip_to(text.find(")" + delimiter + '"', i) + len(delimiter) + 2)
            head += '""'
            continue
        if c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):  # not a digit separator (1'000)
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            skip_to(j + 1)
            head += c + c
            continue
        if c == "{":
            at_namespace = all(stack)
            is_namespace = bool(re.match(r"\s*((inline\s+)?namespace\b|extern\s*\"\")", head))
            is_function = (at_namespace and not is_namespace and "(" in head and ")" in head
                           and not NOT_A_FUNCTION.match(head) and not head.rstrip().endswith("="))
            stack.append(is_namespace)
            if is_function:
                names = re.findall(r"[A-Za-z_~][A-Za-z0-9_:~]*", head.split("(")[0])
                found.append([names[-1].split("::")[-1] if names else "?", head_start, None, len(stack)])
            head, head_start = "", None
        elif c == "}":
            if found and found[-1][2] is None and found[-1][3] == len(stack):
                found[-1][2] = line
            if stack:
                stack.pop()
            head, head_start = "", None
        elif c == ";":
            head, head_start = "", None
        else:
            if head_start is None and not c.isspace():
                head_start = line
            head += c
            if c == "\n":
                line += 1
        i += 1
    return [(name, first, last) for name, first, last, _ in found if last is not None]


root = sys.argv[1]
failures, measured = [], 0
for top in ("engine/src", "apps/logagg"):
    for folder, _, names in os.walk(os.path.join(root, top)):
        for name in sorted(names):
            if not name.endswith((".cc", ".h")):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            for function, first, last in functions(open(path, encoding="utf-8").read()):
                measured += 1
                length = last - first + 1
                if length > LIMIT and (rel, function) not in EXEMPT:
                    failures.append(f"{rel}:{first}: {function} is {length} lines (at most {LIMIT})")
                if (rel, function) in EXEMPT and length <= LIMIT:
                    failures.append(f"{rel}: {function} is no longer over {LIMIT} lines: drop its exemption")
if measured < 600:
    failures.append(f"only {measured} functions found: the layout this check reads has changed")
for f in failures:
    print("FAIL:", f)
if failures:
    sys.exit(1)
print(f"function_length: ok ({measured} functions, none over {LIMIT} lines but the exempt state machine)")
