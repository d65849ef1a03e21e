// libcurl POST with pooled easy handles (see http_client.h).
#include "agents/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "harness/error.h"

namespace crucible {
namespace {

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { CRU_CHECK(curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK, "curl_global_init"); });
}

struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

struct EasyDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};

struct Sink {
  std::string* body;
  size_t cap;
  bool overflow = false;
};

size_t on_body(char* p, size_t size, size_t n, void* user) {
  auto* s = static_cast<Sink*>(user);
  const size_t len = size * n;
  if (s->body->size() + len > s->cap) {
    s->overflow = true;
    return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
  }
  s->body->append(p, len);
  return len;
}

size_t on_header(char* p, size_t size, size_t n, void* user) {
  auto* h = static_cast<std::map<std::string, std::string>*>(user);
  const size_t len = size * n;
  std::string line(p, len);
  if (line.rfind("HTTP/", 0) == 0) {
    h->clear();  // a new response (after 100-continue or a redirect): forget the old headers
    return len;
  }
  const auto colon = line.find(':');
  if (colon == std::string::npos) return len;
  std::string name = line.substr(0, colon);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  std::string value = line.substr(colon + 1);
  auto trim = [](std::string& s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    size_t b = 0;
    while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    s.erase(0, b);
  };
  trim(value);
  (*h)[name] = value;
  return len;
}

// Local servers (vLLM, Ollama, the tests' fakes) must not go through a proxy that the
// environment sets for the outside world.
std::string no_proxy_list() {
  std::string list = "localhost,127.0.0.1,::1";
  for (const char* var : {"no_proxy", "NO_PROXY"}) {
    if (const char* v = std::getenv(var); v && *v) {
      list = std::string(v) + "," + list;
      break;
    }
  }
  return list;
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", s);
  return buf;
}

}  // namespace

struct HttpClient::Handle {
  std::unique_ptr<CURL, EasyDeleter> easy;
};

AttemptOutcome HttpResult::outcome() const {
  AttemptOutcome o;
  o.kind = kind;
  o.status = status;
  if (auto it = headers.find("retry-after"); it != headers.end()) o.retry_after = it->second;
  if (auto it = headers.find("retry-after-ms"); it != headers.end()) o.retry_after_ms = it->second;
  return o;
}

HttpClient::HttpClient() { global_init(); }
HttpClient::~HttpClient() = default;

std::unique_ptr<HttpClient::Handle> HttpClient::take() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      auto h = std::move(idle_.back());
      idle_.pop_back();
      return h;
    }
  }
  auto h = std::make_unique<Handle>();
  h->easy.reset(curl_easy_init());
  CRU_CHECK(h->easy != nullptr, "curl_easy_init");
  return h;
}

void HttpClient::give(std::unique_ptr<Handle> h) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (idle_.size() < 256) idle_.push_back(std::move(h));
}

HttpResult HttpClient::post(const HttpRequest& req) {
  HttpResult r;
  auto h = take();
  CURL* c = h->easy.get();
  curl_easy_reset(c);  // keeps the connection cache, drops every option of the last use

  Slist headers;
  for (const auto& line : req.headers) {
    curl_slist* next = curl_slist_append(headers.get(), line.c_str());
    CRU_CHECK(next != nullptr, "curl_slist_append");
    (void)headers.release();
    headers.reset(next);
  }
  // Without this, curl sends "Expect: 100-continue" for large bodies and waits a second.
  {
    curl_slist* next = curl_slist_append(headers.get(), "Expect:");
    CRU_CHECK(next != nullptr, "curl_slist_append");
    (void)headers.release();
    headers.reset(next);
  }

  Sink sink{&r.body, req.max_body_bytes};
  const std::string no_proxy = no_proxy_list();
  curl_easy_setopt(c, CURLOPT_URL, req.url.c_str());
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, req.body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &r.headers);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for timeouts
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(std::max(1.0, req.connect_timeout_s * 1000)));
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(std::max(1.0, req.read_timeout_s * 1000)));
  curl_easy_setopt(c, CURLOPT_NOPROXY, no_proxy.c_str());
  curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");  // whatever curl can decode
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);   // a redirect would resend the key elsewhere
  curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);

  const auto t0 = std::chrono::steady_clock::now();
  const CURLcode rc = curl_easy_perform(c);
  r.elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  long status = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  r.status = static_cast<int>(status);
  if (rc == CURLE_OK) {
    r.kind = (status >= 200 && status < 300) ? AttemptOutcome::Kind::ok : AttemptOutcome::Kind::http_error;
  } else if (rc == CURLE_OPERATION_TIMEDOUT) {
    curl_off_t connect_us = 0;
    curl_easy_getinfo(c, CURLINFO_CONNECT_TIME_T, &connect_us);
    if (connect_us == 0) {
      r.kind = AttemptOutcome::Kind::connect_timeout;
      r.error = "connect timeout after " + seconds(req.connect_timeout_s);
    } else {
      r.kind = AttemptOutcome::Kind::read_timeout;
      r.error = "read timeout: no complete answer within " + seconds(req.read_timeout_s);
    }
    r.status = 0;
  } else if (rc == CURLE_WRITE_ERROR && sink.overflow) {
    r.kind = AttemptOutcome::Kind::http_error;  // final: not retried (status stays)
    r.error = "answer larger than " + std::to_string(req.max_body_bytes) + " bytes";
    if (r.status == 0) r.status = 200;
  } else {
    r.kind = AttemptOutcome::Kind::connection_error;
    r.error = std::string("connection error: ") + curl_easy_strerror(rc);
    r.status = 0;
  }
  give(std::move(h));
  return r;
}

}  // namespace crucible
