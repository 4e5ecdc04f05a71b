"""perf's folded stacks (its stackcollapse script's output), read into
simplified C++ frame names, and the frames that take the most samples: for
walkthrough/make_report.py and flame.sh's summary.

Usage as a program: folded_stacks.py FOLDED [N]
prints the N (default 15) frames with the most samples of their own (self) and
with the most samples under them (total), as a Markdown table.
"""
import re
import sys
from pathlib import Path


def simplify(frame):
    """A C++ frame without arguments, template arguments, return type and clones."""
    name = re.sub(r" \[clone [^\]]*\]", "", frame)
    name = name.replace("(anonymous namespace)::", "")
    name = name.replace("operator()", "operator@call")
    out, depth = [], 0
    for c in name:
        if c in "<(":
            depth += 1
        elif c in ">)" and depth > 0:
            depth -= 1
        elif depth == 0:
            out.append(c)
    name = "".join(out).replace("operator@call", "operator()").strip()
    name = re.sub(r"\s+const$", "", name)
    if " " in name and "operator" not in name:
        name = name.rsplit(" ", 1)[1]  # the return type of a template function
    return name or frame


def read_folded(path):
    """[(frames root..leaf, samples)], the comm dropped."""
    stacks = []
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")[1:]
        stacks.append(([simplify(f) for f in frames], int(count)))
    return stacks


def top_frames(stacks, n):
    """The n frames with the most samples of their own, and the n with the
    most samples on their stack (a frame counted once per stack, however often
    it recurses): [(share, frame)], largest first."""
    total = sum(count for _, count in stacks) or 1
    own, under = {}, {}
    for frames, count in stacks:
        leaf = frames[-1] if frames else "[unknown]"
        own[leaf] = own.get(leaf, 0) + count
        for frame in set(frames):
            under[frame] = under.get(frame, 0) + count
    rank = lambda times: sorted(((v / total, k) for k, v in times.items()), key=lambda t: (-t[0], t[1]))[:n]
    return rank(own), rank(under)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: folded_stacks.py FOLDED [N]")
    stacks = read_folded(sys.argv[1])
    own, under = top_frames(stacks, int(sys.argv[2]) if len(sys.argv) == 3 else 15)
    print(f"{sum(count for _, count in stacks)} samples\n")
    print("| self | frame | | total | frame |\n|---:|---|---|---:|---|")
    for i in range(max(len(own), len(under))):
        cells = lambda rows: f"{100 * rows[i][0]:.1f}% | `{rows[i][1]}`" if i < len(rows) else " | "
        print(f"| {cells(own)} | | {cells(under)} |")


if __name__ == "__main__":
    main()
