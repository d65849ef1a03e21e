// Keeps API keys out of everything an agent returns: errors, raw bodies, texts.
#pragma once
#include <string>

namespace crucible {

// Replaces every occurrence of `secret` in `text` with "[REDACTED]". An empty secret
// changes nothing.
std::string redact(std::string text, const std::string& secret);

// Is this environment variable name one that holds credentials (…_API_KEY, …_TOKEN,
// …SECRET…, …PASSWORD…, AWS_/GOOGLE_ credentials, …)? Used to scrub the environment of
// processes the harness starts.
bool is_secret_env_name(const std::string& name);

}  // namespace crucible
