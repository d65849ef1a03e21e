// The worker process: owns one device (or, compile-only, one compiler), answers
// framed JSON requests on fd 3 with replies on fd 4. Started by harness/worker_client.
#pragma once

namespace crucible {
// argv: __worker --backend NAME --device N [--compile-only]
int worker_main(int argc, char** argv);
}  // namespace crucible
