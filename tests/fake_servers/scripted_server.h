// A scripted HTTP/1.1 server for tests, in-process on 127.0.0.1 and a random port. It
// answers every request with the next queued reply (status, body, headers, a delay, or
// a dropped connection), else with a handler's reply, else with the default reply, and
// records every request it received, so tests can assert what a client sent and how
// many times. Plain POSIX sockets: Debian's cpp-httplib is split into a shared library,
// and a test server needs no more than this. Keep-alive is supported, so clients that
// reuse connections (libcurl) are served as they are in production.
#pragma once
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace crucible::testing {

struct ScriptedReply {
  int status = 200;
  std::string body;
  std::map<std::string, std::string> headers;
  int delay_ms = 0;     // before answering (a slow server)
  bool drop = false;    // read the request, then close the connection without an answer
};

struct RecordedRequest {
  std::string method, path, body;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string header(const std::string& name) const {
    auto it = headers.find(lower(name));
    return it == headers.end() ? "" : it->second;
  }
  bool has_header(const std::string& name) const { return headers.count(lower(name)) > 0; }
  static std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
  }
};

class ScriptedServer {
 public:
  using Handler = std::function<ScriptedReply(const RecordedRequest&)>;

  ScriptedServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) throw std::runtime_error("socket");
    int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, 1024) != 0) {
      ::close(fd_);
      throw std::runtime_error("bind/listen on 127.0.0.1");
    }
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }

  ~ScriptedServer() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    acceptor_.join();
    ::close(fd_);
    for (auto& c : conns_) c->thread.join();
  }
  ScriptedServer(const ScriptedServer&) = delete;
  ScriptedServer& operator=(const ScriptedServer&) = delete;

  void push(ScriptedReply r) {
    std::lock_guard<std::mutex> lock(mutex_);
    script_.push_back(std::move(r));
  }
  // Computes the reply from the request when the script is empty.
  void set_handler(Handler h) {
    std::lock_guard<std::mutex> lock(mutex_);
    handler_ = std::move(h);
  }
  // Reply used when the script is empty and no handler is set.
  void set_default(ScriptedReply r) {
    std::lock_guard<std::mutex> lock(mutex_);
    default_ = std::move(r);
  }
  std::vector<RecordedRequest> requests() {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_;
  }
  size_t request_count() {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_.size();
  }
  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  struct Conn {
    std::thread thread;
    std::atomic<bool> done{false};
  };

  bool stopping() {
    std::lock_guard<std::mutex> lock(mutex_);
    return stop_;
  }

  void accept_loop() {
    while (!stopping()) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) continue;
      int one = 1;
      ::setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      // Join finished connections as we go, so a long benchmark keeps few threads.
      for (auto it = conns_.begin(); it != conns_.end();) {
        if ((*it)->done) {
          (*it)->thread.join();
          it = conns_.erase(it);
        } else {
          ++it;
        }
      }
      auto conn = std::make_unique<Conn>();
      Conn* raw = conn.get();
      conn->thread = std::thread([this, c, raw] {
        serve(c);
        ::close(c);
        raw->done = true;
      });
      conns_.push_back(std::move(conn));
    }
  }

  // Reads until `want` bytes are buffered or `delim` appears; false on EOF/stop.
  bool fill(int c, std::string& buf, size_t want, const char* delim) {
    char tmp[65536];
    while ((delim ? buf.find(delim) == std::string::npos : buf.size() < want)) {
      if (stopping()) return false;
      pollfd p{c, POLLIN, 0};
      const int r = ::poll(&p, 1, 20);
      if (r <= 0) continue;
      const ssize_t k = ::recv(c, tmp, sizeof tmp, 0);
      if (k <= 0) return false;
      buf.append(tmp, static_cast<size_t>(k));
    }
    return true;
  }

  static bool send_all(int c, const std::string& s) {
    size_t off = 0;
    while (off < s.size()) {
      const ssize_t k = ::send(c, s.data() + off, s.size() - off, MSG_NOSIGNAL);
      if (k <= 0) return false;
      off += static_cast<size_t>(k);
    }
    return true;
  }

  static const char* reason(int s) {
    switch (s) {
      case 200: return "OK";
      case 400: return "Bad Request";
      case 401: return "Unauthorized";
      case 403: return "Forbidden";
      case 404: return "Not Found";
      case 429: return "Too Many Requests";
      case 500: return "Internal Server Error";
      case 502: return "Bad Gateway";
      case 503: return "Service Unavailable";
      case 529: return "Overloaded";
      default: return "Status";
    }
  }

  void serve(int c) {
    std::string buf;
    for (;;) {
      if (!fill(c, buf, 0, "\r\n\r\n")) return;
      const size_t head_end = buf.find("\r\n\r\n");
      const std::string head = buf.substr(0, head_end);
      buf.erase(0, head_end + 4);
      RecordedRequest req;
      size_t line_end = head.find("\r\n");
      const std::string start = head.substr(0, line_end);
      const size_t sp1 = start.find(' '), sp2 = start.find(' ', sp1 + 1);
      req.method = start.substr(0, sp1);
      req.path = start.substr(sp1 + 1, sp2 - sp1 - 1);
      size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
      while (pos < head.size()) {
        size_t e = head.find("\r\n", pos);
        if (e == std::string::npos) e = head.size();
        const std::string line = head.substr(pos, e - pos);
        const size_t colon = line.find(':');
        if (colon != std::string::npos) {
          std::string v = line.substr(colon + 1);
          while (!v.empty() && v.front() == ' ') v.erase(0, 1);
          req.headers[RecordedRequest::lower(line.substr(0, colon))] = v;
        }
        pos = e + 2;
      }
      if (req.header("expect") == "100-continue" && !send_all(c, "HTTP/1.1 100 Continue\r\n\r\n")) return;
      const size_t length = req.has_header("content-length") ? std::stoul(req.header("content-length")) : 0;
      if (!fill(c, buf, length, nullptr)) return;
      req.body = buf.substr(0, length);
      buf.erase(0, length);

      ScriptedReply r;
      Handler h;
      bool from_handler = false;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        requests_.push_back(req);
        if (!script_.empty()) {
          r = std::move(script_.front());
          script_.pop_front();
        } else if (handler_) {
          h = handler_;
          from_handler = true;
        } else {
          r = default_;
        }
      }
      if (from_handler) r = h(req);
      if (r.delay_ms > 0) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait_for(lock, std::chrono::milliseconds(r.delay_ms), [this] { return stop_; });
        if (stop_) return;
      }
      if (r.drop) return;  // the caller closes the socket: no answer at all
      std::string out = "HTTP/1.1 " + std::to_string(r.status) + " " + reason(r.status) + "\r\n";
      bool has_type = false;
      for (const auto& [k, v] : r.headers) {
        out += k + ": " + v + "\r\n";
        if (RecordedRequest::lower(k) == "content-type") has_type = true;
      }
      if (!has_type) out += "Content-Type: application/json\r\n";
      out += "Content-Length: " + std::to_string(r.body.size()) + "\r\nConnection: keep-alive\r\n\r\n" + r.body;
      if (!send_all(c, out)) return;
    }
  }

  int fd_ = -1;
  int port_ = -1;
  std::thread acceptor_;
  std::list<std::unique_ptr<Conn>> conns_;  // touched by the acceptor thread, then the destructor
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::deque<ScriptedReply> script_;
  Handler handler_;
  ScriptedReply default_{500, R"({"error":{"message":"script exhausted"}})", {}, 0, false};
  std::vector<RecordedRequest> requests_;
};

}  // namespace crucible::testing
