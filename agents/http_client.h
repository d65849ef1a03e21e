// A small libcurl POST client for the model APIs: RAII for every curl handle, a pool
// of easy handles so that keep-alive connections are reused across threads, and
// failures classified the way the retry policy needs them (connect vs read timeout,
// dropped connection, HTTP status).
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "agents/retry_policy.h"

namespace crucible {

struct HttpRequest {
  std::string url;
  std::vector<std::string> headers;   // "Name: value"
  std::string body;
  double connect_timeout_s = 10;
  double read_timeout_s = 600;        // whole exchange
  size_t max_body_bytes = 64u << 20;  // a larger answer is cut and reported as an error
};

struct HttpResult {
  AttemptOutcome::Kind kind = AttemptOutcome::Kind::connection_error;
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // names lower-cased; last value wins
  std::string error;                           // transport failure in words (curl's)
  double elapsed_ms = 0;

  AttemptOutcome outcome() const;
};

class HttpClient {
 public:
  HttpClient();
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;
  // Thread-safe. Never throws for a remote failure.
  HttpResult post(const HttpRequest&);

 private:
  struct Handle;
  std::unique_ptr<Handle> take();
  void give(std::unique_ptr<Handle>);
  std::mutex mutex_;
  std::vector<std::unique_ptr<Handle>> idle_;
};

}  // namespace crucible
