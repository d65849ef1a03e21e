// The messages between the trusted process and a CPU executor over an AF_UNIX
// SOCK_SEQPACKET pair (one message per send, so no framing). The trusted side never
// takes a verdict or a time from a reply: "done" only says the calls returned, and is
// believed only once the executor is seen idle again (cpu_device.cpp).
#pragma once
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace crucible::cpuproto {

enum Op : uint32_t {
  kLoad = 1,    // + fd of the shared object (memfd); reply kOk / kError
  kMap = 2,     // u64 id, u64 bytes + fd of the buffer; no reply
  kUnmap = 3,   // u64 id; no reply
  kQuery = 4,   // u32 n, n × string; reply kOk, u32 n, n × u8 found
  kRun = 5,     // u32 launches, per launch: string symbol, u32 nargs, nargs × (u8 type, u64 payload); reply kOk / kError
  kOk = 100,
  kError = 101, // string message
};

// Argument types on the wire (the payload is a buffer id, an integer or the bits of a double).
enum ArgType : uint8_t { kPtr = 0, kI32 = 1, kI64 = 2, kU32 = 3, kF32 = 4, kF64 = 5 };

constexpr size_t kMaxMessage = 1 << 16;
constexpr int kControlFd = 3;  // where the executor finds its end of the pair

class Writer {
 public:
  void u8(uint8_t v) { raw(&v, 1); }
  void u32(uint32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
  void str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    raw(s.data(), s.size());
  }
  void raw(const void* p, size_t n) {
    auto* b = static_cast<const uint8_t*>(p);
    buf.insert(buf.end(), b, b + n);
  }
  std::vector<uint8_t> buf;
};

// Bounds-checked: a short or malformed message sets ok = false and yields zeros.
class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  uint8_t u8() { uint8_t v = 0; raw(&v, 1); return v; }
  uint32_t u32() { uint32_t v = 0; raw(&v, 4); return v; }
  uint64_t u64() { uint64_t v = 0; raw(&v, 8); return v; }
  std::string str() {
    uint32_t len = u32();
    if (!ok || len > n_ - off_) { ok = false; return {}; }
    std::string s(reinterpret_cast<const char*>(p_ + off_), len);
    off_ += len;
    return s;
  }
  bool ok = true;

 private:
  void raw(void* dst, size_t k) {
    if (!ok || k > n_ - off_) { ok = false; return; }
    std::memcpy(dst, p_ + off_, k);
    off_ += k;
  }
  const uint8_t* p_;
  size_t n_;
  size_t off_ = 0;
};

// One message, optionally with one fd attached. Returns false on error (errno set).
inline bool send_msg(int sock, const std::vector<uint8_t>& data, int fd = -1) {
  struct iovec iov{const_cast<uint8_t*>(data.data()), data.size()};
  struct msghdr mh{};
  mh.msg_iov = &iov;
  mh.msg_iovlen = 1;
  alignas(struct cmsghdr) char ctrl[CMSG_SPACE(sizeof(int))];
  if (fd >= 0) {
    std::memset(ctrl, 0, sizeof ctrl);
    mh.msg_control = ctrl;
    mh.msg_controllen = sizeof ctrl;
    struct cmsghdr* c = CMSG_FIRSTHDR(&mh);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &fd, sizeof(int));
  }
  for (;;) {
    ssize_t n = sendmsg(sock, &mh, MSG_NOSIGNAL);
    if (n >= 0) return static_cast<size_t>(n) == data.size();
    if (errno != EINTR) return false;
  }
}

// Receives one message into `data`; `fd` gets an attached fd or -1. Returns the byte
// count, 0 on EOF, -1 on error (errno set). flags: e.g. MSG_DONTWAIT.
inline ssize_t recv_msg(int sock, std::vector<uint8_t>& data, int* fd, int flags = 0) {
  data.resize(kMaxMessage);
  struct iovec iov{data.data(), data.size()};
  struct msghdr mh{};
  mh.msg_iov = &iov;
  mh.msg_iovlen = 1;
  alignas(struct cmsghdr) char ctrl[CMSG_SPACE(sizeof(int) * 4)];
  mh.msg_control = ctrl;
  mh.msg_controllen = sizeof ctrl;
  if (fd) *fd = -1;
  ssize_t n;
  do n = recvmsg(sock, &mh, flags | MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n < 0) return n;
  for (struct cmsghdr* c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    size_t nfd = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < nfd; ++i) {
      int got;
      std::memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
      if (fd && *fd < 0) *fd = got;
      else ::close(got);  // only one fd is ever expected
    }
  }
  data.resize(static_cast<size_t>(n));
  return n;
}

}  // namespace crucible::cpuproto
