// A system receives a message type that owns memory (see
// message_not_plain_data): its context is made and run, reading the
// messages both ways, and only Strata's message is printed.
#include <string>

#include "context/testdata/fixture.h"

struct note {
  std::string text;
};

struct reader {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id self, strata::testing::position& p) {
      p.x += static_cast<float>(data.messages(strata::tag<note>, self).size());
    });
    data.for_each_message(strata::tag<note>, [](const auto&) {});
  }
};

constexpr auto settings =
    settings_with(strata::system_signature::make(strata::tag<reader>)
                      .write(ct::position)
                      .receives<note>());

int main() { run_once<settings>(); }
