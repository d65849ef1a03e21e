// Tests model config reading: every shipped example in configs/models/ parses into the
// values it states, errors name the file, line and field (unknown keys, wrong types,
// out-of-range values, missing per-kind fields), and make_agent builds each kind.
#include <gtest/gtest.h>

#include <filesystem>

#include "agents/agent.h"
#include "harness/error.h"

using namespace crucible;

namespace {
const std::filesystem::path kModels = std::filesystem::path(CRUCIBLE_SOURCE_DIR) / "configs" / "models";

std::string error_of(const std::string& yaml) {
  try {
    parse_model_config(YAML::Load(yaml), "m.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(ModelConfig, EveryShippedExampleParses) {
  int n = 0;
  for (const char* f : {"vllm.yaml", "sglang.yaml", "ollama.yaml", "llamacpp.yaml", "openrouter.yaml", "openai.yaml",
                        "anthropic.yaml", "command.yaml"}) {
    const auto c = load_model_config((kModels / f).string());
    EXPECT_FALSE(c.name.empty()) << f;
    EXPECT_NO_THROW(make_agent(c)) << f;
    ++n;
  }
  EXPECT_EQ(n, 8);
}

TEST(ModelConfig, ValuesAreRead) {
  const auto c = load_model_config((kModels / "openrouter.yaml").string());
  EXPECT_EQ(c.kind, "openai");
  EXPECT_EQ(c.base_url, "https://openrouter.ai/api/v1");
  EXPECT_EQ(c.api_key_env, "OPENROUTER_API_KEY");
  EXPECT_TRUE(c.has_temperature);
  EXPECT_DOUBLE_EQ(c.temperature, 0.7);
  EXPECT_TRUE(c.has_top_p);
  EXPECT_EQ(c.max_tokens, 8192);
  ASSERT_TRUE(c.seed.has_value());
  EXPECT_EQ(*c.seed, 1234);
  EXPECT_EQ(c.headers.at("X-Title"), "Crucible");
  EXPECT_EQ(c.extra_body["provider"]["allow_fallbacks"], true);
  EXPECT_DOUBLE_EQ(c.price_in_per_mtok, 0.30);
  EXPECT_EQ(c.max_retries, 5);
  EXPECT_EQ(c.max_concurrency, 16);

  const auto o = load_model_config((kModels / "ollama.yaml").string());
  EXPECT_FALSE(o.has_top_p);
  EXPECT_EQ(o.extra_body["options"]["num_ctx"], 16384);
  const auto cmd = load_model_config((kModels / "command.yaml").string());
  ASSERT_GE(cmd.command.size(), 2u);
  EXPECT_EQ(cmd.command[0], "python3");
}

TEST(ModelConfig, TrailingSlashIsDroppedAndNameDefaultsToModel) {
  const auto c = parse_model_config(YAML::Load("kind: openai\nbase_url: http://h:1/v1/\nmodel: m1\n"), "m.yaml");
  EXPECT_EQ(c.base_url, "http://h:1/v1");
  EXPECT_EQ(c.name, "m1");
  EXPECT_FALSE(c.has_temperature);
  EXPECT_FALSE(c.seed.has_value());
}

TEST(ModelConfig, ErrorsNameFileLineAndField) {
  auto e = error_of("kind: openai\nbase_url: http://h/v1\nmodel: m\nmax_tokenz: 5\n");
  EXPECT_NE(e.find("m.yaml:4"), std::string::npos) << e;
  EXPECT_NE(e.find("max_tokenz"), std::string::npos) << e;
  e = error_of("kind: openai\nbase_url: http://h/v1\nmodel: m\ntemperature: hot\n");
  EXPECT_NE(e.find("m.yaml:4"), std::string::npos) << e;
  EXPECT_NE(e.find("temperature"), std::string::npos) << e;
  e = error_of("kind: openai\nbase_url: http://h/v1\nmodel: m\ntop_p: 1.5\n");
  EXPECT_NE(e.find("top_p"), std::string::npos) << e;
  e = error_of("kind: gemini\n");
  EXPECT_NE(e.find("kind"), std::string::npos) << e;
  e = error_of("kind: anthropic\nmodel: m\n");
  EXPECT_NE(e.find("base_url"), std::string::npos) << e;
  e = error_of("kind: openai\nbase_url: localhost:8000\nmodel: m\n");
  EXPECT_NE(e.find("http://"), std::string::npos) << e;
  e = error_of("kind: command\ncommand: python3 agent.py\n");
  EXPECT_NE(e.find("list"), std::string::npos) << e;
  e = error_of("model: m\n");
  EXPECT_NE(e.find("kind"), std::string::npos) << e;
}

TEST(ModelConfig, WhereMayCarryALineAlready) {
  try {
    parse_model_config(YAML::Load("kind: openai\nbase_url: http://h/v1\nmodel: m\nbogus: 1\n"), "run.yaml:12");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("run.yaml:4: ", 0), 0u) << e.what();
  }
}

TEST(ModelConfig, ReplayKeepsItsOwnKeysForTheDriver) {
  const auto c = parse_model_config(YAML::Load("kind: replay\nname: r\ndir: results/old\n"), "m.yaml");
  EXPECT_EQ(c.kind, "replay");
  EXPECT_EQ(c.node["dir"].as<std::string>(), "results/old");
  EXPECT_THROW(make_agent(c), InputError);
}

TEST(ModelConfig, QuotedScalarsInExtraBodyStayStrings) {
  const auto c = parse_model_config(YAML::Load("kind: openai\nbase_url: http://h/v1\nmodel: m\nextra_body: {a: '5', b: 5, c: true, d: null, e: [1, x]}\n"), "m.yaml");
  EXPECT_TRUE(c.extra_body["a"].is_string());
  EXPECT_TRUE(c.extra_body["b"].is_number_integer());
  EXPECT_TRUE(c.extra_body["c"].is_boolean());
  EXPECT_TRUE(c.extra_body["d"].is_null());
  EXPECT_EQ(c.extra_body["e"][1], "x");
}
