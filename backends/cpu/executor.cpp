// The executor process (untrusted side): loads the candidate's shared object, maps the
// buffers it is given, locks itself down with seccomp and calls the plan's functions
// through libffi. It holds nothing else: an empty environment, no fds but the control
// socket and its buffers. Its replies are only ever hints (see executor_protocol.h).
#include <dlfcn.h>
#include <ffi.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/cpu/cpu_executor.h"
#include "backends/cpu/executor_protocol.h"
#include "backends/cpu/seccomp_filter.h"

namespace crucible {

namespace {

using namespace cpuproto;

struct Mapping {
  void* ptr = nullptr;
  size_t len = 0;
};

class Executor {
 public:
  explicit Executor(int ctl) : ctl_(ctl) {}

  int serve() {
    std::vector<uint8_t> msg;
    for (;;) {
      int fd = -1;
      ssize_t n = recv_msg(ctl_, msg, &fd);
      if (n <= 0) return 0;  // the trusted side went away
      Reader r(msg.data(), msg.size());
      uint32_t op = r.u32();
      switch (op) {
        case kLoad: reply(load(fd)); break;
        case kMap: map(r, fd); break;
        case kUnmap: unmap(r); break;
        case kQuery: query(r); break;
        case kRun: reply(run(r)); break;
        default:
          if (fd >= 0) ::close(fd);
          reply("unknown request " + std::to_string(op));
      }
    }
  }

 private:
  void reply(const std::string& error) {
    Writer w;
    if (error.empty()) {
      w.u32(kOk);
    } else {
      w.u32(kError);
      w.str(error.substr(0, 4096));
    }
    send_msg(ctl_, w.buf);
  }

  std::string load(int fd) {
    if (fd < 0) return "load: no shared object fd";
    if (handle_) return "load: already loaded";
    std::string path = "/proc/self/fd/" + std::to_string(fd);
    handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    ::close(fd);
    if (!handle_) {
      const char* e = dlerror();
      return std::string("cannot load the candidate's shared object: ") + (e ? e : "?");
    }
    return {};
  }

  void map(Reader& r, int fd) {
    uint64_t id = r.u64(), bytes = r.u64();
    if (fd < 0 || !r.ok) return;
    if (bytes == 0) bytes = 1;
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED) return;  // a later run naming it reports the missing buffer
    unmap_id(id);
    maps_[id] = {p, bytes};
  }

  void unmap(Reader& r) {
    uint64_t id = r.u64();
    if (r.ok) unmap_id(id);
  }

  void unmap_id(uint64_t id) {
    auto it = maps_.find(id);
    if (it == maps_.end()) return;
    munmap(it->second.ptr, it->second.len);
    maps_.erase(it);
  }

  void* symbol(const std::string& name) {
    if (!handle_ || name.empty()) return nullptr;
    auto it = syms_.find(name);
    if (it != syms_.end()) return it->second;
    void* s = dlsym(handle_, name.c_str());
    syms_[name] = s;
    return s;
  }

  void query(Reader& r) {
    uint32_t n = r.u32();
    Writer w;
    w.u32(kOk);
    w.u32(n);
    for (uint32_t i = 0; i < n && r.ok; ++i) w.u8(symbol(r.str()) ? 1 : 0);
    send_msg(ctl_, w.buf);
  }

  struct Call {
    void* fn = nullptr;
    std::vector<ffi_type*> types;
    std::vector<uint64_t> store;  // one 8-byte slot per argument
    std::vector<void*> values;
  };

  std::string run(Reader& r) {
    // Parse the whole request before any candidate code runs.
    uint32_t nl = r.u32();
    std::vector<Call> calls(nl < 4096 ? nl : 0);
    if (nl >= 4096) return "too many launches";
    for (uint32_t li = 0; li < nl; ++li) {
      Call& c = calls[li];
      std::string name = r.str();
      uint32_t na = r.u32();
      if (!r.ok || na > 1024) return "malformed run request";
      c.fn = symbol(name);
      if (!c.fn) return "launch " + std::to_string(li) + ": no extern \"C\" function '" + name + "' in the candidate";
      c.types.resize(na);
      c.store.resize(na);
      c.values.resize(na);
      for (uint32_t ai = 0; ai < na; ++ai) {
        uint8_t t = r.u8();
        uint64_t payload = r.u64();
        if (!r.ok) return "malformed run request";
        uint64_t& slot = c.store[ai];
        switch (t) {
          case kPtr: {
            auto it = maps_.find(payload);
            if (it == maps_.end()) return "launch " + std::to_string(li) + ": argument " + std::to_string(ai) + ": buffer not mapped";
            void* p = it->second.ptr;
            std::memcpy(&slot, &p, sizeof p);
            c.types[ai] = &ffi_type_pointer;
            break;
          }
          case kI32: { int32_t v = static_cast<int32_t>(payload); std::memcpy(&slot, &v, 4); c.types[ai] = &ffi_type_sint32; break; }
          case kU32: { uint32_t v = static_cast<uint32_t>(payload); std::memcpy(&slot, &v, 4); c.types[ai] = &ffi_type_uint32; break; }
          case kI64: { slot = payload; c.types[ai] = &ffi_type_sint64; break; }
          case kF32: {
            double d; std::memcpy(&d, &payload, 8);
            float f = static_cast<float>(d); std::memcpy(&slot, &f, 4);
            c.types[ai] = &ffi_type_float;
            break;
          }
          case kF64: { slot = payload; c.types[ai] = &ffi_type_double; break; }
          default: return "malformed argument type";
        }
        c.values[ai] = &slot;
      }
    }
    // From here on, candidate code may run: lock down first (once; filters persist).
    if (!locked_) {
      std::string err = install_run_filter(ctl_);
      if (!err.empty()) return "executor: " + err;
      locked_ = true;
    }
    for (uint32_t li = 0; li < nl; ++li) {
      Call& c = calls[li];
      ffi_cif cif;
      if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, static_cast<unsigned>(c.types.size()), &ffi_type_void,
                       c.types.data()) != FFI_OK)
        return "launch " + std::to_string(li) + ": ffi_prep_cif failed";
      ffi_call(&cif, FFI_FN(c.fn), nullptr, c.values.data());
    }
    return {};
  }

  int ctl_;
  void* handle_ = nullptr;
  bool locked_ = false;
  std::unordered_map<uint64_t, Mapping> maps_;
  std::unordered_map<std::string, void*> syms_;
};

}  // namespace

int cpu_executor_main(int argc, char** argv) {
  (void)argc;
  (void)argv;
  const int ctl = kControlFd;
  // Whatever the spawner set, make sure: no privileges to gain, no core dumps, an own
  // process group, and no descriptor but the control socket (0-2 are /dev/null).
  prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  struct rlimit rl{0, 0};
  setrlimit(RLIMIT_CORE, &rl);
  if (getpgrp() != getpid()) setpgid(0, 0);
  close_range(ctl + 1, ~0U, 0);
  std::string err = install_load_filter(ctl);
  if (!err.empty()) {
    cpuproto::Writer w;
    w.u32(cpuproto::kError);
    w.str("executor: " + err);
    cpuproto::send_msg(ctl, w.buf);
    _exit(2);
  }
  int rc = Executor(ctl).serve();
  _exit(rc);  // no atexit handlers: they might make calls the filter forbids
}

}  // namespace crucible
