#include "harness/framing.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "harness/error.h"

namespace crucible {

static void write_all(int fd, const char* p, size_t n) {
  while (n) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      CRU_THROW(std::string("write to worker pipe failed: ") + std::strerror(errno));
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
}

void write_frame(int fd, const nlohmann::json& msg) {
  std::string body = msg.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  uint32_t n = static_cast<uint32_t>(body.size());
  unsigned char hdr[4] = {static_cast<unsigned char>(n), static_cast<unsigned char>(n >> 8),
                          static_cast<unsigned char>(n >> 16), static_cast<unsigned char>(n >> 24)};
  std::string frame(reinterpret_cast<char*>(hdr), 4);
  frame += body;
  write_all(fd, frame.data(), frame.size());
}

// Reads exactly n bytes before the deadline.
static ReadStatus read_exact(int fd, char* p, size_t n, std::chrono::steady_clock::time_point deadline) {
  while (n) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return ReadStatus::timeout;
    pollfd pfd{fd, POLLIN, 0};
    int r = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left, 1 << 30)));
    if (r < 0) {
      if (errno == EINTR) continue;
      return ReadStatus::closed;
    }
    if (r == 0) return ReadStatus::timeout;
    ssize_t got = ::read(fd, p, n);
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return ReadStatus::closed;
    }
    if (got == 0) return ReadStatus::closed;
    p += got;
    n -= static_cast<size_t>(got);
  }
  return ReadStatus::ok;
}

FrameRead read_frame(int fd, std::chrono::steady_clock::time_point deadline) {
  FrameRead fr;
  unsigned char hdr[4];
  fr.status = read_exact(fd, reinterpret_cast<char*>(hdr), 4, deadline);
  if (fr.status != ReadStatus::ok) return fr;
  uint32_t n = hdr[0] | (hdr[1] << 8) | (hdr[2] << 16) | (uint32_t(hdr[3]) << 24);
  if (n > kMaxFrameBytes) {
    fr.status = ReadStatus::malformed;
    fr.error = "frame of " + std::to_string(n) + " bytes is over the limit";
    return fr;
  }
  std::string body(n, '\0');
  fr.status = read_exact(fd, body.data(), n, deadline);
  if (fr.status != ReadStatus::ok) return fr;
  try {
    fr.msg = nlohmann::json::parse(body);
  } catch (const std::exception& e) {
    fr.status = ReadStatus::malformed;
    fr.error = e.what();
  }
  return fr;
}

}  // namespace crucible
