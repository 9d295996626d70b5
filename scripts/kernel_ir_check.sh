#!/usr/bin/env bash
# kernel_ir_check.sh — proves that a change to the OpenCL kernels leaves the code they compile to
# as it is: for each configuration of scripts/kernel_ir_configs.txt it builds the program text the
# host would build, once from a base git revision and once from the working tree, compiles both to
# LLVM IR with clang and compares the two.
#
#   bash scripts/kernel_ir_check.sh [BASE] [--configs FILE] [--only REGEX] [--keep DIR]
#
#     BASE       the revision to compare against (default: main)
#     --configs  the configuration list (default: scripts/kernel_ir_configs.txt)
#     --only     check only the configurations whose name matches REGEX (and skip the coverage check)
#     --keep     leave the programs, IR, diffs and coverage lists in DIR (default: a temporary folder)
#
# Needs bash, git and clang (Debian package `clang`; CLANG=clang-17 picks another). Run from anywhere
# inside the repository. Exit status: 0 the same IR for every configuration, every branch taken and
# every branch's braces balanced; 1 a configuration whose IR differs, a branch that no
# configuration takes or one whose braces do not balance (each named); 2 a configuration that does
# not compile on one side, or a usage error.
#
# What it compares:
# - A configuration is a name, a kernel file (a path under src/kernels) and -D options. Its program
#   is what Context::kernel concatenates: each file of the host's source list for that kernel,
#   preceded by a "// ---- path" line and followed by a newline. The list is read from each side's
#   C++ sources (src/**/*.cpp, *.hpp), so that a part added to a descriptor is part of the
#   check: a statement `kernel({"a.cl", ..., "k.cl"}, ...)` or `c.sources = {"a.cl", ..., "k.cl"}`
#   that names the kernel, or else the `d.sources = {...}` statement of the file whose descriptor
#   names it, followed by the kernel. A configuration may give the files itself instead, joined by
#   '+' (the ladder's rungs 6-8 share their list in blocked_tiles.hpp, which does not name them).
# - clang -x cl -cl-std=CL2.0 -target nvptx64-nvidia-nvcl -O1 -emit-llvm: the NVIDIA target, under
#   which the inline PTX (cp.async, membar.gl) compiles; -O1, so that the IR says what the kernel
#   computes, not how the source spells it (a macro or a function, a block more or less).
# - Before the diff, each module goes once more through clang (IR in, IR out, no passes) without
#   two kinds of metadata that record how the source is written, not what it computes:
#   kernel_arg_type, the argument types as spelled (float or real, one type), and the !srcloc of
#   each inline asm statement, its offset in the program text (for diagnostics). The round trip
#   renumbers the rest. The module id and source file name are dropped.
#
# Coverage: every #if, #ifdef, #ifndef, #elif and #else branch of every file in the programs, on
# both sides, must be taken by at least one configuration, except a branch that holds only an
# #error. The script puts a marker token at the top of each branch, preprocesses each program with
# its configuration's options and lists the markers that no configuration left standing.
# "Taken" means taken by the preprocessor: a branch that only defines a macro counts as taken
# when the macro is defined, whether or not that configuration uses it.
#
# Braces: in every file of the working tree's programs, each #if, #elif and #else branch opens as
# many braces as it closes (so does each file): no block opens under one branch and closes under
# another.
set -uo pipefail

CLANG=${CLANG:-clang}
# cl_khr_fp16 on: clang 14 declares vload_half and vstore_half for this target only with it (the
# kernels do no half arithmetic, which is all the extension adds on a device).
CL_FLAGS=(-x cl -cl-std=CL2.0 -Xclang -finclude-default-header -Xclang -cl-ext=+cl_khr_fp16 -target nvptx64-nvidia-nvcl)

usage() {
  sed -n '2,/^set -uo/p' "$0" | sed -e '/^set -uo/d' -e 's/^# \{0,1\}//' >&2
  exit 2
}

base=main configs="" only="" keep=""
while (($#)); do
  case $1 in
    --configs) configs=${2:?--configs needs a file}; shift 2 ;;
    --only) only=${2:?--only needs a pattern}; shift 2 ;;
    --keep) keep=${2:?--keep needs a folder}; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "unknown option $1" >&2; usage ;;
    *) base=$1; shift ;;
  esac
done

root=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "not inside a git repository" >&2; exit 2; }
cd "$root" || exit 2
configs=${configs:-scripts/kernel_ir_configs.txt}
[[ -r $configs ]] || { echo "cannot read the configuration list $configs" >&2; exit 2; }
git rev-parse --verify -q "$base^{commit}" >/dev/null || { echo "no revision named $base" >&2; exit 2; }
command -v "$CLANG" >/dev/null || { echo "$CLANG not found (Debian: apt-get install clang)" >&2; exit 2; }

if [[ -n $keep ]]; then
  mkdir -p "$keep" || exit 2
  out=$(cd "$keep" && pwd)
else
  out=$(mktemp -d) || exit 2
  trap 'rm -rf "$out"' EXIT
fi

# The text of src/kernels/PATH on a side (base or work).
source_of() {
  if [[ $1 == base ]]; then git show "$base:src/kernels/$2"; else cat "src/kernels/$2"; fi
}

# git grep over a side's C++ sources.
host_grep() {
  local side=$1
  shift
  local paths=(-- 'src/*.cpp' 'src/*.hpp')
  if [[ $side == base ]]; then git grep "$@" "$base" "${paths[@]}"; else git grep --untracked "$@" "${paths[@]}"; fi
}

host_file() {
  if [[ $1 == base ]]; then git show "$2"; else cat "$2"; fi
}

quoted() { grep -oE '"[^"]+"' | tr -d '"'; }

# The statements (text between semicolons, on one line each) of the host files that name KERNEL.
host_statements() {
  local side=$1 kernel=$2 file
  for file in $(host_grep "$side" -l -F "\"$kernel\""); do
    host_file "$side" "$file" | sed 's://.*$::' | tr '\n' ' ' | tr ';' '\n'
  done
}

# The files of the program that builds KERNEL on a side, one per line.
program_files() {
  local side=$1 kernel=$2 statements lists
  if [[ $kernel == *+* ]]; then
    tr '+' '\n' <<<"$kernel"
    return
  fi
  statements=$(host_statements "$side" "$kernel")
  # a list that names the kernel itself: kernel({"a.cl", ..., "k.cl"}, ...) or c.sources = {...}
  lists=$(grep -F "\"$kernel\"" <<<"$statements" | grep -E '(kernel\(|sources *= *)\{' |
    sed -E 's/.*(kernel\(|sources *= *)\{([^}]*)\}.*/\2/' | grep -F "\"$kernel\"" | tr -s ' ' | sort -u)
  if [[ -n $lists ]]; then
    if (($(wc -l <<<"$lists") > 1)); then
      echo "$side: the host builds $kernel from different lists:" >&2
      echo "$lists" >&2
      return 1
    fi
    quoted <<<"$lists"
    return
  fi
  # a descriptor that names it: its d.sources, then the kernel
  lists=$(grep -E 'd\.sources *= *\{' <<<"$statements" | sed -E 's/.*d\.sources *= *\{([^}]*)\}.*/\1/' | tr -s ' ' | sort -u)
  if [[ -n $lists && $(wc -l <<<"$lists") -eq 1 ]]; then
    quoted <<<"$lists"
    echo "$kernel"
    return
  fi
  echo "$side: no host source list names $kernel, or several do (give the files as a+b+c)" >&2
  return 1
}

# Writes a side's program for KERNEL to stdout.
program_text() {
  local side=$1 kernel=$2 f files
  files=$(program_files "$side" "$kernel") || return 1
  for f in $files; do
    printf '// ---- %s\n' "$f"
    source_of "$side" "$f" || return 1
    printf '\n'
  done
}

# The same program with a marker after each branch-opening directive (not before an #error), and
# the list of markers in FILE.branches as "marker path:line".
instrumented_text() {
  local side=$1 kernel=$2 branches=$3 f files id
  files=$(program_files "$side" "$kernel") || return 1
  for f in $files; do
    id=$(printf '%s' "$f" | tr -c 'A-Za-z0-9' '_')
    printf '// ---- %s\n' "$f"
    source_of "$side" "$f" | awk -v id="$id" -v path="$f" -v list="$branches" '
      { line[NR] = $0 }
      END {
        for (i = 1; i <= NR; ++i) {
          print line[i]
          if (line[i] !~ /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else)([^A-Za-z0-9_]|$)/) continue
          start = i
          while (line[i] ~ /\\$/ && i < NR) print line[++i]
          j = i + 1
          while (j <= NR && line[j] ~ /^[ \t]*$/) ++j
          if (j <= NR && line[j] ~ /^[ \t]*#[ \t]*error/) continue
          marker = "CLGEMM_BRANCH_" id "_L" start
          print marker
          print marker " " path ":" start >> list
        }
      }'
    printf '\n'
  done
}

# Prints "path:line: ..." for each #if/#ifdef/#ifndef/#elif/#else branch of a file whose braces do
# not balance, and for a file whose braces do not. Comments and string and character literals do
# not count.
read -r -d '' BRACES_AWK <<'AWK'
function report(msg) { print path ":" msg; bad = 1 }
function close_branch() {
  if (net[depth] != 0) report(start[depth] ": the branch opened here leaves " net[depth] " brace(s) open")
}
BEGIN { depth = 0; net[0] = 0; incomment = 0 }
{
  line = $0
  text = ""
  # strip comments and literals, carrying block comments across lines
  i = 1; n = length(line)
  while (i <= n) {
    c = substr(line, i, 1); c2 = substr(line, i, 2)
    if (incomment) {
      if (c2 == "*/") { incomment = 0; i += 2 } else i++
      continue
    }
    if (c2 == "/*") { incomment = 1; i += 2; continue }
    if (c2 == "//") break
    if (c == "\"" || c == "\047") {
      q = c; i++
      while (i <= n && substr(line, i, 1) != q) { if (substr(line, i, 1) == "\\") i++; i++ }
      i++; text = text " "; continue
    }
    text = text c; i++
  }
  if (text ~ /^[ \t]*#[ \t]*(if|ifdef|ifndef)([^A-Za-z0-9_]|$)/) { depth++; net[depth] = 0; start[depth] = FNR; next }
  if (text ~ /^[ \t]*#[ \t]*(elif|else)([^A-Za-z0-9_]|$)/) { close_branch(); net[depth] = 0; start[depth] = FNR; next }
  if (text ~ /^[ \t]*#[ \t]*endif([^A-Za-z0-9_]|$)/) { close_branch(); depth--; next }
  opens = gsub(/\{/, "{", text); closes = gsub(/\}/, "}", text)
  net[depth] += opens - closes
}
END { if (net[0] != 0) report(" the file leaves " net[0] " brace(s) open"); exit bad }
AWK

# IR without what legitimately differs between two spellings of one kernel.
normalize() {
  local ll=$1 ids
  sed -E 's/ !kernel_arg_type ![0-9]+//; s/, !srcloc ![0-9]+//g' "$ll" >"$ll.stripped"
  "$CLANG" -x ir -S -emit-llvm -Xclang -disable-llvm-passes -target nvptx64-nvidia-nvcl -Wno-override-module \
    "$ll.stripped" -o - | grep -vE '^(; ModuleID|source_filename) '
}

compile() {  # side name kernel options...
  local side=$1 name=$2 kernel=$3
  shift 3
  local dir="$out/$side"
  program_text "$side" "$kernel" >"$dir/$name.cl" || return 2
  if ! "$CLANG" "${CL_FLAGS[@]}" -O1 -emit-llvm -S "$@" "$dir/$name.cl" -o "$dir/$name.ll" 2>"$dir/$name.err"; then
    echo "FAIL  $name: does not compile on the $side side ($kernel $*):" >&2
    sed 's/^/      /' "$dir/$name.err" | head -20 >&2
    return 2
  fi
  normalize "$dir/$name.ll" >"$dir/$name.norm" || return 2
}

cover() {  # side name kernel options...
  local side=$1 name=$2 kernel=$3
  shift 3
  local dir="$out/$side"
  instrumented_text "$side" "$kernel" "$dir/$name.branches" >"$dir/$name.marked.cl" || return 2
  "$CLANG" "${CL_FLAGS[@]}" -E -P "$@" "$dir/$name.marked.cl" 2>/dev/null |
    grep -oE 'CLGEMM_BRANCH_[A-Za-z0-9_]+_L[0-9]+' >>"$dir/covered"
  cat "$dir/$name.branches" >>"$dir/all-branches"
}

mkdir -p "$out/base" "$out/work"
: >"$out/base/covered" >"$out/work/covered" >"$out/base/all-branches" >"$out/work/all-branches" >"$out/work/files"
status=0 checked=0 names=" "
while read -r name kernel opts; do
  [[ -z $name || $name == \#* ]] && continue
  opts=${opts%%#*}
  if [[ -z $kernel ]]; then echo "$configs: configuration $name names no kernel" >&2; exit 2; fi
  if [[ $names == *" $name "* ]]; then echo "$configs: configuration $name appears twice" >&2; exit 2; fi
  names+="$name "
  [[ -n $only && ! $name =~ $only ]] && continue
  read -r -a args <<<"$opts"
  program_files work "$kernel" >>"$out/work/files" 2>/dev/null
  ok=1
  for side in base work; do
    if ! compile "$side" "$name" "$kernel" "${args[@]}"; then ok=0; status=2; fi
    [[ -z $only ]] && cover "$side" "$name" "$kernel" "${args[@]}"
  done
  ((ok)) || continue
  checked=$((checked + 1))
  if diff -u "$out/base/$name.norm" "$out/work/$name.norm" >"$out/$name.diff"; then
    echo "same  $name"
  else
    echo "DIFF  $name: $kernel $opts ($(grep -c '^[-+][^-+]' "$out/$name.diff") lines; $out/$name.diff)"
    sed -n '3,40p' "$out/$name.diff" | sed 's/^/      /'
    ((status == 0)) && status=1
  fi
done <"$configs"

if [[ -z $only ]]; then
  for side in base work; do
    label=$([[ $side == base ]] && echo "$base" || echo "working tree")
    sort -u "$out/$side/all-branches" >"$out/$side/all-branches.sorted"
    sort -u "$out/$side/covered" >"$out/$side/covered.sorted"
    missed=$(awk 'NR == FNR { seen[$1] = 1; next } !($1 in seen) { print $2 }' \
      "$out/$side/covered.sorted" "$out/$side/all-branches.sorted" | sort -t: -k1,1 -k2,2n)
    total=$(wc -l <"$out/$side/all-branches.sorted")
    if [[ -n $missed ]]; then
      echo "UNCOVERED on the $label side: $(wc -l <<<"$missed") of $total branches taken by no configuration:"
      sed 's/^/      /' <<<"$missed"
      ((status == 0)) && status=1
    else
      echo "covered: all $total branches of the $label side's programs"
    fi
  done
fi

# Braces: no brace may open under one #if branch and close under another.
braces=0
for f in $(sort -u "$out/work/files"); do
  awk -v path="$f" "$BRACES_AWK" "src/kernels/$f" || braces=1
done
if ((braces)); then
  echo "BRACES: the branches above open and close braces apart"
  ((status == 0)) && status=1
else
  echo "braces: every #if branch of the working tree's $(sort -u "$out/work/files" | wc -l) program files balances its own"
fi

case $status in
  0) echo "OK: $checked configurations compile to the same IR on $base and the working tree" ;;
  1) echo "FAILED: differences or uncovered branches above" ;;
  *) echo "FAILED: a configuration does not compile" ;;
esac
[[ -n $keep ]] && echo "files in $out"
exit "$status"
