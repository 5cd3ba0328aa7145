"""The smallest value each kind of positive input may take, and why.

A field that must be positive (pydantic ``gt=0``) took 1e-300: tiers of 1e-300
guaranteed IOPS priced at 1.2e+301 USD per IOPS, a database of 1e-300 NOPM wrote
2.4e+290 pages per transaction, a measured latency of 1e-300 ms gave a median error
of 1.6e+301 %, a server of 1e-300 GB RAM was sized (hostile-input walk). Each floor
below is the smallest value that still describes something real; the models use
them as ``ge=`` bounds, so a smaller value is one line naming the field, its floor
and the value given.
"""

from __future__ import annotations

#: IOs per second: one IO a second is the least a rate of IOs means; Storage QoS takes whole
#: IOPS (``New-StorageQosPolicy -MinimumIops``/``-MaximumIops`` are integers, Microsoft Learn)
MIN_IOPS = 1.0
#: decimal TB: 1 GB, the finest step every capacity figure is shown in
MIN_CAPACITY_TB = 0.001
#: decimal GB: the same 1 GB
MIN_CAPACITY_GB = 1.0
#: GB of RAM of a server or a database VM: SQL Server's documented minimum memory is 1 GB
#: (Express 512 MB; "SQL Server 2022: Hardware and software requirements", Microsoft Learn),
#: and no hypervisor host runs on less
MIN_RAM_GB = 1.0
#: GB of RAM of a benchmark VM: Windows Server Core's documented minimum, 512 MB ("Hardware
#: requirements for Windows Server", Microsoft Learn); VMFleet's VMs run Server Core
MIN_VM_RAM_GB = 0.5
#: GB of a database's buffer pool: SQL Server's smallest ``max server memory``, 128 MB
#: ("Server memory configuration options", Microsoft Learn)
MIN_BUFFER_POOL_GB = 0.128
#: transactions (NOPM, TPM) per minute: one a minute; below, figures per transaction run to
#: hundreds of digits (writes_per_txn 2.4e+290 at 1e-300 NOPM)
MIN_TRANSACTIONS_PER_MIN = 1.0
#: core-microseconds of CPU per transaction: one; a TPC-C transaction takes hundreds
MIN_CPU_US_PER_TXN = 1.0
#: seconds of a checkpoint interval or burst: SQL Server sets its recovery targets in whole
#: seconds (``TARGET_RECOVERY_TIME``) or minutes (``recovery interval``)
MIN_CHECKPOINT_S = 1.0
#: GB a benchmark issuer touches: 1 MB, below which a working set is a handful of blocks
MIN_WORKING_SET_GB = 0.001
#: share of a database that is hot: 0.1 %, the hot data of a 1 TB database is then 1 GB
MIN_WORKING_SET_FRACTION = 0.001
#: the hosts' CPU utilisation cap: 1 %, below which no CPU is left for IO
MIN_CPU_UTILIZATION_CAP = 0.01
#: microseconds of a device's QD1 latency: 10 ns, faster than any memory access (a DRAM
#: access takes ~0.1 us; the catalog's fastest, Optane PMem, is 0.09 us to write)
MIN_DEVICE_LATENCY_US = 0.01
#: ms of a measured latency: 1 us, the finest DiskSpd reports (milliseconds to three decimals)
MIN_MEASURED_LATENCY_MS = 0.001
#: MB/s of a device's or link's bandwidth: one
MIN_MB_S = 1.0
#: Gb/s of a port: 1 Gb/s, the slowest Ethernet a server is sold with
MIN_GBIT_S = 1.0
#: drive writes per day: 0.01, below any drive's rating (QLC 0.1-0.3, a hard disk's 550 TB
#: a year workload rating ~0.07 DWPD of 20 TB)
MIN_DWPD = 0.01
#: years of a device warranty: one, the shortest any datasheet in the catalog gives is three
MIN_WARRANTY_YEARS = 1.0
#: watts of a part's power: one
MIN_POWER_W = 1.0
#: MT/s of a memory module: DDR-200, the slowest DDR (JEDEC JESD79)
MIN_MEMORY_MT_S = 200.0
#: metres of a cable or a link's reach: 10 cm, shorter than any DAC sold (0.5 m)
MIN_CABLE_M = 0.1
#: USD of a monthly budget: one
MIN_BUDGET_USD = 1.0
#: GB of a Ceph OSD's memory target: the OSD's own base use, ``osd_memory_base`` 768 MiB
#: (Ceph src/common/options.cc), below which the target leaves no cache
MIN_OSD_MEMORY_TARGET_GB = 0.805306368
