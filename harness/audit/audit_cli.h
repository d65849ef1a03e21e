// Entry points of `crucible audit` and `crucible reference-output` for the CLI
// (harness/cli/main.cpp). Each takes the arguments after the subcommand, with argv[0]
// being the subcommand's own name: call as audit_main(argc - 1, argv + 1).
#pragma once
#include <string>

namespace crucible {

// crucible audit [SUITE] [--backend cpu] [--name GLOB] [--level N] [--max-shapes N]
//                [--kinds k1,k2] [--json]
// Exit code 0: every degenerate candidate failed every task; 1: a defect or an error.
int audit_main(int argc, char** argv);

// crucible reference-output --task DIR --shape N=..,M=.. --seed S --out DIR [--backend cpu|cuda|hip]
// Writes the inputs exactly as `crucible inputs` does (<input>.bin, inputs.json) and the
// reference's outputs on them (ref_<output>.bin, outputs.json with dtype, shape and
// tolerance). Runs the reference in this process (it opens the device here).
// exe: the crucible binary the CPU backend execs as its executor (empty: this process).
int refout_main(int argc, char** argv, const std::string& exe = "");

}  // namespace crucible
