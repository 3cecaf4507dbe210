#include "src/core/status.h"

#include <gtest/gtest.h>

namespace disktune {
namespace {

TEST(StatusTest, OkByDefault) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.ToString(), "OK");
}

TEST(StatusTest, FromErrnoNamesTheOperationAndMapsTheCode) {
  Status s = Status::FromErrno(ENOSPC, "write /data/x");
  EXPECT_EQ(s.code(), Status::Code::kNoSpace);
  EXPECT_EQ(s.message(), "write /data/x: No space left on device");
  EXPECT_EQ(Status::FromErrno(EINVAL, "open").code(),
            Status::Code::kNotSupported);
  EXPECT_EQ(Status::FromErrno(EROFS, "open").code(),
            Status::Code::kPermissionDenied);
  EXPECT_EQ(Status::FromErrno(EIO, "fsync").code(), Status::Code::kIOError);
}

TEST(StatusTest, WithContextPrefixes) {
  Status s = Status::IOError("boom").WithContext("probe seq_read");
  EXPECT_EQ(s.message(), "probe seq_read: boom");
  EXPECT_TRUE(Status::OK().WithContext("x").ok());
}

TEST(ResultTest, HoldsValueOrStatus) {
  Result<int> good = 7;
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 7);
  Result<int> bad = Status::NotFound("nope");
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace disktune
