// Framed JSON over pipes between the driver and its workers: a 4-byte little-endian
// length, then that many bytes of JSON. Reads take a deadline.
#pragma once
#include <chrono>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace crucible {

inline constexpr uint32_t kMaxFrameBytes = 256u << 20;

// Throws crucible::Error when the peer is gone.
void write_frame(int fd, const nlohmann::json& msg);

enum class ReadStatus { ok, timeout, closed, malformed };
struct FrameRead {
  ReadStatus status = ReadStatus::closed;
  nlohmann::json msg;
  std::string error;
};
// Waits until `deadline` for one whole frame.
FrameRead read_frame(int fd, std::chrono::steady_clock::time_point deadline);

}  // namespace crucible
