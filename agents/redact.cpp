// Secret redaction and credential-variable detection (see redact.h).
#include "agents/redact.h"

#include <algorithm>
#include <cctype>

namespace crucible {

std::string redact(std::string text, const std::string& secret) {
  if (secret.empty()) return text;
  static const std::string mark = "[REDACTED]";
  size_t pos = 0;
  while ((pos = text.find(secret, pos)) != std::string::npos) {
    text.replace(pos, secret.size(), mark);
    pos += mark.size();
  }
  return text;
}

bool is_secret_env_name(const std::string& raw) {
  std::string n = raw;
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::toupper(c); });
  auto has = [&](const char* s) { return n.find(s) != std::string::npos; };
  auto ends = [&](const std::string& s) { return n.size() >= s.size() && n.compare(n.size() - s.size(), s.size(), s) == 0; };
  return has("API_KEY") || has("APIKEY") || has("SECRET") || has("PASSWORD") || has("PASSWD") ||
         has("TOKEN") || has("CREDENTIAL") || ends("_KEY") || ends("_PAT") || n.rfind("AWS_", 0) == 0 ||
         n == "GOOGLE_APPLICATION_CREDENTIALS" || n == "NETRC";
}

}  // namespace crucible
