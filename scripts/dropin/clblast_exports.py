#!/usr/bin/env python3
"""clblast_exports.py — writes dropin/clblast/clblast_exports.txt: the symbols of CLBlast's public
API as an installed libclblast exports them, which libclgemm_clblast forwards to the real library
(dropin/clblast/forwarders.cpp), so that a program linked to it in place of -lclblast finds every
routine. The list holds:
  - every C function (CLBlast…, all of which return CLBlastStatusCode);
  - every C++ function of namespace clblast whose name clblast.h declares as returning StatusCode,
    in each instance the library holds (the routines' float, double, half and complex forms).
Run it again against a newer CLBlast to forward what that version adds:
  python3 scripts/dropin/clblast_exports.py [/usr/include/clblast.h] [libclblast.so.1] > dropin/clblast/clblast_exports.txt
"""
import re
import subprocess
import sys


def main():
    header = sys.argv[1] if len(sys.argv) > 1 else "/usr/include/clblast.h"
    library = sys.argv[2] if len(sys.argv) > 2 else "/usr/lib/x86_64-linux-gnu/libclblast.so.1"
    declared = set(re.findall(r"^StatusCode\s+(?:PUBLIC_API\s+)?(\w+)\s*\(", open(header).read(), re.M))
    table = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True, text=True, check=True).stdout
    functions = [f[2] for f in (line.split() for line in table.splitlines()) if len(f) == 3 and f[1] in "TW"]
    readable = subprocess.run(["c++filt"], input="\n".join(functions), capture_output=True, text=True,
                              check=True).stdout.splitlines()
    chosen = []
    for symbol, name in zip(functions, readable):
        name = re.sub(r"^clblast::StatusCode ", "", name)
        routine = re.match(r"clblast::(\w+)(<[^()]*>)?\(", name)
        if symbol.startswith("CLBlast") or (routine and routine.group(1) in declared):
            chosen.append(symbol)
    version = re.search(r"libclblast\.so\.[0-9.]+", subprocess.run(["readlink", "-f", library], capture_output=True,
                                                                     text=True).stdout)
    print(f"# CLBlast's public functions, from {version.group(0) if version else library} and clblast.h "
          f"(scripts/dropin/clblast_exports.py): {len(chosen)} symbols")
    print("\n".join(sorted(chosen)))


if __name__ == "__main__":
    main()
