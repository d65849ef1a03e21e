// The shared request/retry loop of the HTTP model clients (see http_agent.h).
#include "agents/http_agent.h"

#include <chrono>
#include <cstdlib>

#include "agents/redact.h"

namespace crucible {
namespace {

std::string excerpt(const std::string& s, size_t n = 400) {
  if (s.size() <= n) return s;
  return s.substr(0, n) + "… (" + std::to_string(s.size() - n) + " more bytes)";
}

RetryConfig retry_config(const ModelConfig& c) {
  RetryConfig r;
  r.max_retries = c.max_retries;
  r.base_s = c.retry_base_s;
  r.cap_s = c.retry_cap_s;
  r.retry_after_max_s = c.retry_after_max_s;
  return r;
}

}  // namespace

std::string json_error_message(const std::string& body) {
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return "";
  if (auto it = j.find("error"); it != j.end()) {
    if (it->is_string()) return it->get<std::string>();
    if (it->is_object()) {
      std::string msg;
      if (auto m = it->find("message"); m != it->end() && m->is_string()) msg = m->get<std::string>();
      if (auto t = it->find("type"); t != it->end() && t->is_string()) msg = t->get<std::string>() + (msg.empty() ? "" : ": " + msg);
      return msg;
    }
  }
  if (auto it = j.find("detail"); it != j.end()) return it->is_string() ? it->get<std::string>() : it->dump();
  if (auto it = j.find("message"); it != j.end() && it->is_string()) return it->get<std::string>();
  return "";
}

HttpAgent::HttpAgent(ModelConfig cfg, AgentHooks hooks)
    : cfg_(std::move(cfg)), policy_(retry_config(cfg_), hooks.sleeper, hooks.clock, hooks.seed) {
  if (!cfg_.api_key_env.empty()) {
    if (const char* k = std::getenv(cfg_.api_key_env.c_str()); k && *k) {
      key_ = k;
      key_set_ = true;
    }
  }
}

std::string HttpAgent::describe_http_error(const HttpResult& r) const {
  if (r.status == 0 || !r.error.empty()) return r.error;
  std::string msg = "HTTP " + std::to_string(r.status);
  const std::string server = json_error_message(r.body);
  msg += ": " + excerpt(server.empty() ? r.body : server);
  return msg;
}

AgentResponse HttpAgent::complete(const AgentRequest& req) {
  const auto t0 = std::chrono::steady_clock::now();
  AgentResponse resp;
  HttpRequest http;
  http.url = url();
  http.headers = headers();
  http.body = body(req).dump();
  http.connect_timeout_s = cfg_.connect_timeout_s;
  http.read_timeout_s = cfg_.read_timeout_s;

  for (int attempt = 1;; ++attempt) {
    HttpResult r = client_.post(http);
    resp.attempts = attempt;
    resp.http_status = r.status;
    resp.raw_body = std::move(r.body);

    if (r.kind == AttemptOutcome::Kind::ok) {
      auto j = nlohmann::json::parse(resp.raw_body, nullptr, false);
      if (j.is_discarded() || !j.is_object()) {
        resp.error = "malformed body: the " + std::to_string(r.status) + " answer is not a JSON object";
        break;
      }
      // OpenRouter and some proxies put an error object in a 200 answer.
      if (j.contains("error") && !j.contains("choices") && !j.contains("content")) {
        int code = 0;
        if (j["error"].is_object() && j["error"].contains("code") && j["error"]["code"].is_number_integer())
          code = j["error"]["code"].get<int>();
        r.kind = AttemptOutcome::Kind::http_error;
        r.status = code;
        r.error = "API error in a " + std::to_string(resp.http_status) + " answer" +
                  (code ? " (code " + std::to_string(code) + ")" : "") + ": " + excerpt(json_error_message(resp.raw_body));
        if (code == 0 || !is_retryable_status(code)) {
          resp.fatal = is_fatal_status(code);
          resp.error = r.error;
          break;
        }
      } else {
        try {
          read_answer(j, resp);
          resp.ok = true;
          resp.cost_usd = (static_cast<double>(resp.tokens_in) * cfg_.price_in_per_mtok +
                           static_cast<double>(resp.tokens_out) * cfg_.price_out_per_mtok) / 1e6;
        } catch (const std::exception& e) {
          resp.ok = false;
          resp.error = std::string("malformed body: ") + e.what();
        }
        break;
      }
    }

    if (r.kind == AttemptOutcome::Kind::http_error && is_fatal_status(r.status)) {
      resp.fatal = true;
      resp.error = "HTTP " + std::to_string(r.status) + " from " + http.url + ": the endpoint refused the credentials";
      resp.error += cfg_.api_key_env.empty()
                        ? " (no api_key_env is configured)"
                        : " (key from $" + cfg_.api_key_env + (key_set_ ? ", which is set" : ", which is NOT set") + ")";
      const std::string server = json_error_message(resp.raw_body);
      if (!server.empty()) resp.error += "; server said: " + excerpt(server);
      resp.error += ". Model '" + cfg_.name + "' stops for this run.";
      break;
    }
    r.body.clear();
    const auto delay = policy_.next_delay(attempt, r.outcome());
    if (!delay) {
      HttpResult shown = r;
      shown.body = resp.raw_body;
      resp.error = describe_http_error(shown);
      if (attempt > 1) resp.error += " (after " + std::to_string(attempt) + " attempts)";
      break;
    }
    policy_.sleep(*delay);
  }

  resp.error = redact(std::move(resp.error), key_);
  resp.raw_body = redact(std::move(resp.raw_body), key_);
  resp.text = redact(std::move(resp.text), key_);
  resp.latency_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return resp;
}

}  // namespace crucible
