// A buffer of shared memory (memfd + mmap) owned by the trusted process. Its fd can be
// passed to an executor process (SCM_RIGHTS), which maps the same pages: that is how a
// candidate reads inputs and writes outputs without ever seeing anything else.
#pragma once
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>

#include "harness/error.h"

namespace crucible {

class ShmBuffer {
 public:
  explicit ShmBuffer(size_t bytes) : bytes_(bytes) {
    // A zero-byte tensor still gets one page so every buffer has a valid mapping.
    size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    mapped_ = bytes == 0 ? page : (bytes + page - 1) / page * page;
    fd_ = memfd_create("crucible-buf", MFD_CLOEXEC);
    if (fd_ < 0) CRU_THROW(std::string("memfd_create: ") + std::strerror(errno));
    if (ftruncate(fd_, static_cast<off_t>(mapped_)) != 0) {
      int e = errno;
      ::close(fd_);
      CRU_THROW("ftruncate(" + std::to_string(mapped_) + "): " + std::strerror(e));
    }
    void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (p == MAP_FAILED) {
      int e = errno;
      ::close(fd_);
      CRU_THROW("mmap(" + std::to_string(mapped_) + "): " + std::strerror(e));
    }
    data_ = static_cast<unsigned char*>(p);
  }
  ~ShmBuffer() {
    if (data_) munmap(data_, mapped_);
    if (fd_ >= 0) ::close(fd_);
  }
  ShmBuffer(const ShmBuffer&) = delete;
  ShmBuffer& operator=(const ShmBuffer&) = delete;

  unsigned char* data() const { return data_; }
  size_t bytes() const { return bytes_; }          // as requested
  size_t mapped_bytes() const { return mapped_; }  // rounded up to pages
  int fd() const { return fd_; }

 private:
  size_t bytes_ = 0;
  size_t mapped_ = 0;
  int fd_ = -1;
  unsigned char* data_ = nullptr;
};

}  // namespace crucible
