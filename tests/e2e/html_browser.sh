# Sourced by the tests that open --format html pages in headless Chromium
# (html_report_test.sh, html_hostile_test.sh), after they set `chromium` (the
# program) and `work` (a scratch folder):
#   open_page PAGE PROBE      prints PAGE's DOM after PROBE (JavaScript) ran
#   body_attribute NAME       body[data-NAME] of the DOM on stdin
#   screenshot PAGE PNG       saves a 1280x1000 screenshot of PAGE
# Without Chromium it reports so and is skipped, or fails in CI
# (tests/support/dependency.sh).
. "$(dirname "${BASH_SOURCE[0]}")/../support/dependency.sh"
if ! [ -x "$chromium" ]; then
  missing_dependency "Chromium: '$chromium' is not a program (scripts/install-deps.sh installs Chromium; then configure again)"
fi

# Opens a copy of PAGE with PROBE as the first script of its <head>, before
# the page's Content-Security-Policy (which refuses any script after it that
# is not the page's own), so the page itself runs under its policy unchanged.
# The probe runs first: it can watch the page, and act on it later through
# timers. Prints the DOM after --virtual-time-budget; the browser's log (with
# every console message and policy violation) goes to PAGE.log. A page that
# hangs the browser (a real dialog waits forever) is stopped after 120 s, and
# prints nothing.
open_page() {
  local page=$1 probe=$2
  PROBE=$probe awk '{ print } !done && $0 == "<head>" { print "<script>\n" ENVIRON["PROBE"] "\n</script>"; done = 1 }
                    END { exit !done }' "$page" > "$page.probe.html" || { echo "FAIL: $page has no <head> line" >&2; return 1; }
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" \
    --virtual-time-budget=10000 --enable-logging=stderr --v=0 --dump-dom "file://$page.probe.html" 2> "$page.log" || true
}

body_attribute() { grep -o "<body[^>]*>" | grep -o " data-$1=\"[^\"]*\"" | cut -d'"' -f2 || true; }

screenshot() {
  "$chromium" --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" --virtual-time-budget=10000 \
    --hide-scrollbars --window-size=1280,1000 --screenshot="$2" "file://$1" 2> /dev/null
}
