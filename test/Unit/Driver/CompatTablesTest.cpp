//===- CompatTablesTest.cpp - The TraceLens-compatible job tables ---------===//
//
// A two-rank job written by the test; the expected rows are worked by hand
// in the comments (spec multi-rank.md §7.1, §5.2, Appendix B 8-11).
//
//===----------------------------------------------------------------------===//
#include "tl/Driver/CompatTables.h"
#include "tl/Driver/RankTable.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace tl;

namespace {

CollectiveInstance call(llvm::StringRef Name, llvm::StringRef Dtype,
                        int64_t Out, double Start, double Dur) {
  CollectiveInstance I;
  I.Pg = SharedName("0");
  I.CollName = SharedName(Name);
  I.Dtype = SharedName(Dtype);
  I.InNelems = 1048576;
  I.OutNelems = Out;
  I.GroupSize = 2;
  I.Stream = 20;
  I.Start = Start;
  I.End = Start + Dur;
  I.NumKernels = 1;
  return I;
}

RankSummary rank(int64_t R, size_t Position, size_t Devices,
                 std::vector<CollectiveInstance> Is) {
  RankSummary S;
  S.Claim.Rank = R;
  S.Claim.Position = Position;
  S.DeviceCount = Devices;
  S.Collectives.Rank = R;
  S.Collectives.Instances = std::move(Is);
  S.Collectives.PgRanks["0"] = {0, 1};
  return S;
}

std::string readCsv(const TraceLensCompat &C, bool Sync) {
  llvm::SmallString<128> Dir;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("tl-compat", Dir));
  llvm::Error E = Sync ? writeNcclImplicitSyncCsv(Dir, "t.csv", C)
                       : writeNcclLongCsv(Dir, "t.csv", C);
  EXPECT_FALSE(bool(E));
  llvm::consumeError(std::move(E));
  llvm::SmallString<128> Path(Dir);
  llvm::sys::path::append(Path, "t.csv");
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  std::string Text = Buf ? (*Buf)->getBuffer().str() : "";
  llvm::sys::fs::remove_directories(Dir);
  return Text;
}

// Rank 0: a comm kernel without metadata (no collective_id: left out), an
// all-reduce at 10.5 for 20 us, a Float8 all-gather at 40 for 10. Rank 1:
// the same at 10.5 for 30 and 40 for 8. Rank 1's file comes first and has
// one deviceProperties entry: GPUs per node 1, so node_id = rank.
TraceLensCompat job() {
  CollectiveInstance Bare;
  Bare.Start = 5;
  Bare.End = 6;
  std::vector<RankSummary> Ranks;
  Ranks.push_back(rank(0, 1, 4,
                       {Bare, call("allreduce", "Float", 1048576, 10.5, 20),
                        call("allgather", "Float8_e4m3fn", 2097152, 40, 10)}));
  Ranks.push_back(rank(1, 0, 1,
                       {call("allreduce", "Float", 1048576, 10.5, 30),
                        call("allgather", "Float8_e4m3fn", 2097152, 40, 8)}));
  return collectTraceLensCompat(Ranks);
}

TEST(CompatTables, Collect) {
  TraceLensCompat C = job();
  ASSERT_EQ(C.Calls.size(), 4u);
  ASSERT_TRUE(C.GpusPerNode);
  EXPECT_EQ(*C.GpusPerNode, 1);
  // 10.5 is not integral: ts is a float column; every dur is.
  EXPECT_FALSE(C.IntTs);
  EXPECT_TRUE(C.IntDur);
  EXPECT_EQ(C.Calls[1].IndexInGroup, 1);
  EXPECT_EQ(C.Calls[1].PgRanks.str(), "[0, 1]");
}

// 1048576 x 4 B = 4.0 MiB; Float8 is not among TraceLens's dtypes: no
// size. ts float (10.5, 40.0), dur int.
TEST(CompatTables, Long) {
  EXPECT_EQ(
      readCsv(job(), /*Sync=*/false),
      "collective_id,index_in_group,rank,Process Group Name,Process Group "
      "Ranks,Collective name,Group size,dtype,In msg nelems,In msg size "
      "(MB),Out msg nelems,Out msg size (MB),In split size,Out split "
      "size,stream,ts,dur,node_id,node_span\n"
      "0_0,0,0,0,\"[0, 1]\",allreduce,2,Float,1048576,4.0,1048576,4.0,[],[],"
      "20,10.5,20,0,inter_node\n"
      "0_1,1,0,0,\"[0, 1]\",allgather,2,Float8_e4m3fn,1048576,,2097152,,[],"
      "[],20,40.0,10,0,inter_node\n"
      "0_0,0,1,0,\"[0, 1]\",allreduce,2,Float,1048576,4.0,1048576,4.0,[],[],"
      "20,10.5,30,1,inter_node\n"
      "0_1,1,1,0,\"[0, 1]\",allgather,2,Float8_e4m3fn,1048576,,2097152,,[],"
      "[],20,40.0,8,1,inter_node\n");
}

// 0_0: both start at 10.5: waits 0, 0; earliest arrival = the highest
// rank of the tie (1); comm_latency 20 (int); skews float (ts is); end
// skew 40.5 - 30.5 = 10. algo bw 4 / 1024 / 20e-6 = 195.3125, x 2(2-1)/2;
// in doubles 20 / 1e6 is 1.9999999999999998e-05, and Python's
// (4/1024)/(20/1e6) prints 195.31249999999997.
// 0_1: no size, no bandwidth; ends 50, 48 -> end skew 2.
TEST(CompatTables, ImplicitSync) {
  EXPECT_EQ(readCsv(job(), /*Sync=*/true),
            "collective_id,Process Group Name,Process Group Ranks,Collective "
            "name,Group size,dtype,In msg nelems,Out msg nelems,In msg size "
            "(MB),Out msg size (MB),Full msg size (MB),comm_latency,skew in "
            "start time,earliest arrival rank,avg_wait_time,skew in end "
            "time,algo bw (GB/s),bus bw "
            "(GB/s),rank_0_ts,rank_0_dur,rank_1_ts,rank_1_dur,rank_0_wait_"
            "time,rank_1_wait_time,node_span\n"
            "0_0,0,\"[0, 1]\",allreduce,2,Float,1048576,1048576,4.0,4.0,4.0,"
            "20,0.0,1,0.0,10.0,195.31249999999997,195.31249999999997,10.5,20,"
            "10.5,30,0.0,0.0,"
            "inter_node\n"
            "0_1,0,\"[0, 1]\",allgather,2,Float8_e4m3fn,1048576,2097152,,,,8,"
            "0.0,1,0.0,2.0,,,40.0,10,40.0,8,0.0,0.0,inter_node\n");
}

// Totals 20 / 1000 = 0.02 and 8 / 1000 = 0.008: the all-reduce first.
TEST(CompatTables, SummaryImplicitSync) {
  EXPECT_EQ(ncclSummaryImplicitSyncTable(job()).toString(),
            "Collective name,dtype,In msg nelems,Process Group Name,Group "
            "size,Full msg size (MB),comm_latency_mean,comm_latency_median,"
            "comm_latency_min,comm_latency_max,skew in start time_mean,skew "
            "in start time_median,skew in start time_min,skew in start "
            "time_max,skew in end time_mean,skew in end time_median,skew in "
            "end time_min,skew in end time_max,algo bw (GB/s)_mean,algo bw "
            "(GB/s)_median,algo bw (GB/s)_min,algo bw (GB/s)_max,bus bw "
            "(GB/s)_mean,bus bw (GB/s)_median,bus bw (GB/s)_min,bus bw "
            "(GB/s)_max,count,Total comm latency (ms)\n"
            "allreduce,Float,1048576,0,2,4.0,20.0,20.0,20,20,0.0,0.0,0.0,0.0,"
            "10.0,10.0,10.0,10.0,195.31249999999997,195.31249999999997,"
            "195.31249999999997,195.31249999999997,195.31249999999997,"
            "195.31249999999997,195.31249999999997,195.31249999999997,1,0.02\n"
            "allgather,Float8_e4m3fn,1048576,0,2,,8.0,8.0,8,8,0.0,0.0,0.0,0.0,"
            "2.0,2.0,2.0,2.0,,,,,,,,,1,0.008\n");
}

// One call per group: dur_std empty; by dur_sum 30, 20, 10, 8.
TEST(CompatTables, SummaryLong) {
  EXPECT_EQ(ncclSummaryLongTable(job()).toString(),
            "rank,Process Group Name,Process Group Ranks,Collective "
            "name,Group size,dtype,In msg nelems,Out msg nelems,In split "
            "size,Out split size,stream,In msg size (MB)_first,Out msg size "
            "(MB)_first,dur_sum,dur_mean,dur_std,dur_min,dur_max,operation_"
            "count\n"
            "1,0,\"[0, 1]\",allreduce,2,Float,1048576,1048576,[],[],20,4.0,"
            "4.0,30,30.0,,30,30,1\n"
            "0,0,\"[0, 1]\",allreduce,2,Float,1048576,1048576,[],[],20,4.0,"
            "4.0,20,20.0,,20,20,1\n"
            "0,0,\"[0, 1]\",allgather,2,Float8_e4m3fn,1048576,2097152,[],[],"
            "20,,,10,10.0,,10,10,1\n"
            "1,0,\"[0, 1]\",allgather,2,Float8_e4m3fn,1048576,2097152,[],[],"
            "20,,,8,8.0,,8,8,1\n");
}

// Every wait 0: the smallest wait is the first wait column (rank 0) both
// times -> 2 of 2 = 100.0 %; rank 1 is the earliest arrival both times.
// NCCL time: 20 + 10 = 30 and 30 + 8 = 38 (the bare kernel has no row).
// The waits are float (ts is).
TEST(CompatTables, Stragglers) {
  EXPECT_EQ(compatStragglerTable(job()).toString(),
            "rank,total_wait_time_us,mean_wait_time_us,times_arrived_last,"
            "times_arrived_first,pct_arrived_last,num_collectives,total_nccl_"
            "dur_us,node_id\n"
            "0,0.0,0.0,2,0,100.0,2,30,0\n"
            "1,0.0,0.0,0,2,0.0,2,38,1\n");
}

} // namespace
