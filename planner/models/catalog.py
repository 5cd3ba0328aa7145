"""Hardware catalog: device records kept as data, validated once, frozen.

Following PyPSA's practice of keeping component attributes as data rather than
code, every figure the model uses lives in a JSON file under
``hardware_catalog/`` (one file per device class). Each record carries its
``source`` and a ``verified`` flag; figures that no datasheet publishes are
listed in ``estimated`` with a sentence saying how they were estimated.

File format (one file per class)::

    {"device_class": "capacity_drive",
     "records": [{"id": "intel-p4510-1tb", ...}, ...]}

A user catalog folder may hold files of the same form; its records are added
to (or replace, by id) the built-in ones.
"""

from __future__ import annotations

import datetime as _dt
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from planner.core import minimums as M
from planner.core.errors import ID_PATTERN, CatalogError, format_validation_error, shown
from planner.core.jsonio import loads, numbers_written_as_numbers, read_bounded
from planner.core.paths import resolved
from planner.core.resources import CATALOG_DIR

MAX_CATALOG_FILE_BYTES = 2_000_000

_ID_PATTERN = ID_PATTERN  # one pattern, said in words by planner.core.errors


class SaleStatus(BaseModel):
    """Why a part may no longer be bought new, with the dates and where they were seen.

    ``end-of-sale``: the maker announced the end (last order date when published);
    ``not-current``: the part is missing from a dated list of current products it
    belonged to (e.g. the Azure Local catalog's current systems) or its maker calls
    it legacy, with no end date published."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    status: Literal["end-of-sale", "not-current"]
    last_order_date: _dt.date | None = Field(default=None, description="last order date, where published")
    last_ship_date: _dt.date | None = Field(default=None, description="last shipment date, where published")
    source: str = Field(min_length=10, description="where the status and dates were seen, with a quote or date")

    def on_sale(self, today: _dt.date | None = None) -> bool:
        """True only before a published last order date that is still ahead."""
        today = today or _dt.date.today()
        return self.status == "end-of-sale" and self.last_order_date is not None and today <= self.last_order_date


class Record(BaseModel):
    """Fields shared by every catalog record."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=_ID_PATTERN, description="stable lowercase id")
    vendor: str = Field(min_length=1)
    model: str = Field(min_length=1)
    source: str = Field(min_length=3, description="where the figures come from")
    verified: bool = Field(
        description="true only where the performance figures were seen in a published datasheet or measurement"
    )
    estimated: dict[str, str] = Field(
        default_factory=dict,
        description="field name -> how that figure was estimated (not published)",
    )

    list_price_usd: float | None = Field(default=None, ge=0)
    power_w: float | None = Field(default=None, ge=0, description="typical active power, W")
    sale_status: SaleStatus | None = Field(
        default=None, description="null: on sale as far as the sources say; else why it may not be bought new"
    )
    listed_on: dict[str, list[str]] = Field(
        default_factory=dict,
        description="program -> ids of the nodes (chassis) whose program listing names this part, as its source "
        "cites it (Dell's Azure Local support matrix qualifies drives and NICs per node); empty: no listing known",
    )
    notes: str = ""

    def on_sale(self, today: _dt.date | None = None) -> bool:
        """Whether the part can still be ordered new (no end of sale or not-current status known)."""
        return self.sale_status is None or self.sale_status.on_sale(today)

    def off_sale(self, today: _dt.date | None = None) -> dict[str, str] | None:
        """Why the part can no longer be ordered new: ``part`` (id), ``name``, ``status``, ``reason`` ("end of
        sale, last orders 2024-04-26" or "no longer listed as a current product") and ``source``; None while it is
        on sale (:meth:`on_sale`). One rule for the sizer's, the parts list's and the whole cost's word on it."""
        if self.on_sale(today):
            return None
        st = self.sale_status
        assert st is not None  # on_sale() is True without one
        why = (
            f"end of sale{', last orders ' + st.last_order_date.isoformat() if st.last_order_date else ''}"
            if st.status == "end-of-sale"
            else "no longer listed as a current product"
        )
        return {"part": self.id, "name": self.name, "status": st.status, "reason": why, "source": st.source}

    @property
    def stand_in(self) -> bool:
        """A placeholder for a part a benchmark does not name (hardware_catalog/README.md: its estimated
        entries start with "stand-in:"): figures for the model, not a part anyone can order."""
        return any(str(v).startswith("stand-in:") for v in self.estimated.values())

    @property
    def name(self) -> str:
        """Vendor and model as a person reads them (the model's bracketed details dropped; a model
        that already starts with its vendor is not prefixed again), for messages; files and the CLI
        use ``id``."""
        model = self.model.split(" (")[0]
        if self.vendor and model.startswith(self.vendor):
            return model.strip()
        return f"{self.vendor} {model}".strip()

    @field_validator("estimated")
    @classmethod
    def _estimates_name_fields(cls, v: dict[str, str]) -> dict[str, str]:
        for key, how in v.items():
            if key not in cls.model_fields:
                raise ValueError(f"estimated names unknown field '{key}'")
            if len(how.strip()) < 3:
                raise ValueError(f"estimated['{key}'] must say how it was estimated")
        return v


#: DDR generations: DDR3 for the Xeon 7500 / E5 v1-v2 era (the seed systems' HP DL580 G7), DDR4, DDR5
MemoryType = Literal["ddr3", "ddr4", "ddr5"]

#: A drive's or cache device's form factor, as its maker's datasheet names it: ``2.5in`` (SFF SAS/SATA), ``3.5in``
#: (LFF), ``u.2`` / ``u.3`` (2.5in NVMe on the SFF-8639 connector), ``e1.s`` / ``e3.s`` (EDSFF), ``m.2``, an add-in
#: card (``hhhl``: half-height half-length; ``fhhl``: full-height half-length), or ``dimm`` (persistent memory)
FormFactor = Literal["2.5in", "3.5in", "u.2", "u.3", "e1.s", "e3.s", "m.2", "hhhl", "fhhl", "dimm"]
#: The form factors a PCIe slot holds rather than a drive bay: add-in cards (PCI-SIG CEM card sizes). The catalog's
#: Samsung PM1725 record: "HHHL cards sit in PCIe slots, not drive bays" (AnandTech 9524: "PM1725 NVMe PCIe HHHL
#: card"); Microsoft's iWARP S2D test ran 4 of them beside 12 HDD and 4 SSD per Dell R730xd
#: (planner/data/benchmarks/published/ms-chelsio-iwarp-4node-2017.json).
ADD_IN_CARDS: frozenset[str] = frozenset({"hhhl", "fhhl"})


def _lower_form_factor(v: Any) -> Any:
    """A form factor as the literal spells it ("U.2" and "HHHL" in a user's catalog read as "u.2", "hhhl")."""
    return v.strip().lower() if isinstance(v, str) else v


def bays_taken(drive_count: Any, drive_in_bay: Any, cache_count: Any, cache_in_bay: Any) -> Any:
    """Drive bays a node's storage devices take [-]: each capacity drive and each cache device that sits in a drive
    bay takes one (an add-in card takes a PCIe slot, persistent memory a DIMM slot: :func:`pcie_slots_taken` and
    the ``pmem_supported`` rule count those). Numbers or numpy arrays alike: one rule for the design check
    (:func:`planner.models.design.resolve_node`), the ``drive_bays`` rule and the sizer's storage sets.

    Parameters
    ----------
    drive_count, cache_count : int or array
        Capacity drives and cache devices per node [-].
    drive_in_bay, cache_in_bay : bool or array
        Whether one of them takes a drive bay (:attr:`CapacityDrive.in_drive_bay`, :attr:`CacheDevice.in_drive_bay`).
    """
    return drive_count * drive_in_bay + cache_count * cache_in_bay


def pcie_slots_taken(nic_count: Any, drive_count: Any, drive_in_slot: Any, cache_count: Any, cache_in_slot: Any) -> Any:
    """PCIe slots a node's cards take [-]: each NIC one, and each capacity drive or cache device that is an add-in
    card (:data:`ADD_IN_CARDS`) one. Numbers or numpy arrays alike: one rule for the ``pcie_slots`` rule and the
    sizer. Host bus adapters are not modelled (a node's parts name none), so none is counted.

    Parameters
    ----------
    nic_count, drive_count, cache_count : int or array
        NICs, capacity drives and cache devices per node [-].
    drive_in_slot, cache_in_slot : bool or array
        Whether one of them is an add-in card (:attr:`CapacityDrive.in_pcie_slot`, :attr:`CacheDevice.in_pcie_slot`).
    """
    return nic_count + drive_count * drive_in_slot + cache_count * cache_in_slot


class _SlotByFormFactor:
    """Where a storage device sits by its form factor, one rule for the capacity drive and the cache device (the
    two models each carried the same property)."""

    if TYPE_CHECKING:
        form_factor: FormFactor | None

    @property
    def in_pcie_slot(self) -> bool:
        """An add-in card: a PCIe slot holds it, not a drive bay."""
        return self.form_factor in ADD_IN_CARDS


class CapacityDrive(Record, _SlotByFormFactor):
    """A capacity-tier drive: NVMe, SAS or SATA SSD, or a SAS/SATA hard disk."""

    device_class: Literal["capacity_drive"] = "capacity_drive"
    interface: Literal["nvme", "sas", "sata"]
    media: Literal["ssd", "hdd"] = "ssd"
    rpm: int | None = Field(default=None, ge=3600, le=20000, description="spindle speed; hdd only")
    pcie_gen: int | None = Field(default=None, ge=3, le=6, description="PCIe generation; nvme only")
    pcie_lanes: int | None = Field(default=None, ge=1, le=32, description="PCIe link width, lanes; nvme only")
    form_factor: FormFactor = Field(
        default="u.2", description="as the maker names it (:data:`FormFactor`); an add-in card takes a PCIe slot"
    )
    capacity_tb: float = Field(ge=M.MIN_CAPACITY_TB, le=200, description="decimal TB")
    rand_read_4k_iops: float = Field(ge=M.MIN_IOPS, le=1e8)
    rand_write_4k_iops: float = Field(ge=M.MIN_IOPS, le=1e8)
    seq_read_mb_s: float = Field(ge=M.MIN_MB_S, le=1e6)
    seq_write_mb_s: float = Field(ge=M.MIN_MB_S, le=1e6)
    read_latency_us: float = Field(ge=M.MIN_DEVICE_LATENCY_US, le=1e5, description="typical QD1 4 KiB random read")
    write_latency_us: float = Field(ge=M.MIN_DEVICE_LATENCY_US, le=1e5, description="typical QD1 4 KiB random write")
    endurance_dwpd: float = Field(ge=M.MIN_DWPD, le=1000, description="drive writes per day over warranty")
    warranty_years: float = Field(default=5, ge=M.MIN_WARRANTY_YEARS, le=20)

    @model_validator(mode="after")
    def _media_fields_agree(self) -> CapacityDrive:
        if self.media == "hdd":
            if self.rpm is None:
                raise ValueError("rpm: a hard disk (media 'hdd') needs its spindle speed")
            if self.interface == "nvme":
                raise ValueError("interface: a hard disk (media 'hdd') is 'sas' or 'sata'")
        elif self.rpm is not None:
            raise ValueError("rpm: only a hard disk (media 'hdd') has a spindle speed")
        if self.pcie_gen is not None and self.interface != "nvme":
            raise ValueError("pcie_gen: only an 'nvme' drive has a PCIe generation")
        if self.pcie_lanes is not None and self.interface != "nvme":
            raise ValueError("pcie_lanes: only an 'nvme' drive has a PCIe link")
        if self.form_factor == "dimm":
            raise ValueError("form_factor: a capacity drive is no DIMM (persistent memory is a cache device)")
        if self.form_factor in ADD_IN_CARDS and self.interface != "nvme":
            raise ValueError(f"form_factor: an add-in card ('{self.form_factor}') is an 'nvme' drive")
        return self

    _form_factor_lower = field_validator("form_factor", mode="before")(_lower_form_factor)

    @property
    def in_drive_bay(self) -> bool:
        """A drive a drive bay holds (every one but an add-in card)."""
        return not self.in_pcie_slot


class CacheDevice(Record, _SlotByFormFactor):
    """A cache-tier device: Optane SSD, Optane persistent memory or a fast SSD."""

    device_class: Literal["cache_device"] = "cache_device"
    kind: Literal["pmem", "nvme", "sas", "sata"]
    capacity_gb: float = Field(ge=M.MIN_CAPACITY_GB, le=100_000, description="decimal GB")
    rand_read_4k_iops: float = Field(ge=M.MIN_IOPS, le=1e9)
    rand_write_4k_iops: float = Field(ge=M.MIN_IOPS, le=1e9)
    seq_read_mb_s: float = Field(ge=M.MIN_MB_S, le=1e6)
    seq_write_mb_s: float = Field(ge=M.MIN_MB_S, le=1e6)
    read_latency_us: float = Field(ge=M.MIN_DEVICE_LATENCY_US, le=1e5)
    write_latency_us: float = Field(ge=M.MIN_DEVICE_LATENCY_US, le=1e5)
    endurance_dwpd: float = Field(ge=M.MIN_DWPD, le=10_000)
    warranty_years: float = Field(default=5, ge=M.MIN_WARRANTY_YEARS, le=20)
    pmem_generation: int | None = Field(default=None, description="Optane PMem series (100, 200, 300); pmem only")
    pcie_gen: int | None = Field(default=None, ge=3, le=6, description="PCIe generation; nvme only")
    pcie_lanes: int | None = Field(default=None, ge=1, le=32, description="PCIe link width, lanes; nvme only")
    form_factor: FormFactor | None = Field(
        default=None,
        description="as the maker names it (:data:`FormFactor`): an add-in card takes a PCIe slot, persistent "
        "memory ('dimm') a DIMM slot; none given: a drive bay of its interface, as a 2.5in or U.2 drive",
    )

    @model_validator(mode="after")
    def _pcie_only_for_nvme(self) -> CacheDevice:
        for name in ("pcie_gen", "pcie_lanes"):
            if getattr(self, name) is not None and self.kind != "nvme":
                raise ValueError(f"{name}: only an 'nvme' cache device has a PCIe link")
        if self.form_factor is not None and (self.form_factor == "dimm") != (self.kind == "pmem"):
            raise ValueError("form_factor: 'dimm' is persistent memory's (kind 'pmem') and only its")
        if self.form_factor in ADD_IN_CARDS and self.kind != "nvme":
            raise ValueError(f"form_factor: an add-in card ('{self.form_factor}') is an 'nvme' cache device")
        return self

    _form_factor_lower = field_validator("form_factor", mode="before")(_lower_form_factor)

    @property
    def in_drive_bay(self) -> bool:
        """A device a drive bay holds: not persistent memory (a DIMM slot) nor an add-in card (a PCIe slot)."""
        return self.kind != "pmem" and not self.in_pcie_slot


class Cpu(Record):
    device_class: Literal["cpu"] = "cpu"
    cores: int = Field(gt=0, le=1024)
    threads: int = Field(gt=0, le=2048)
    # no server CPU of this century runs below 1 GHz: the floor keeps a typo (0.0026 for 2.6)
    # from reaching the model as a CPU a thousand times slower
    base_ghz: float = Field(ge=0.5, le=10)
    turbo_ghz: float | None = Field(default=None, ge=0.5, le=10)
    tdp_w: float = Field(ge=M.MIN_POWER_W, le=1000)
    max_sockets: int = Field(ge=1, le=8)
    socket: str = Field(min_length=1, description="platform socket, e.g. LGA3647, SP3")
    pmem_generations: list[int] = Field(default_factory=list, description="Optane PMem series this CPU can drive")
    family: str = Field(default="", description="processor generation, e.g. 'AMD EPYC 9004 (Genoa)'")
    memory_type: MemoryType | None = None
    memory_channels: int | None = Field(default=None, ge=1, le=24, description="per socket")
    memory_mt_s: int | None = Field(
        default=None,
        ge=800,
        le=12_800,
        description="highest DDR data rate the CPU supports at one DIMM per channel, MT/s",
    )
    pcie_lanes: int | None = Field(
        default=None,
        ge=1,
        le=256,
        description="PCIe lanes per socket usable for devices in a 2-socket system (lanes spent on the "
        "socket-to-socket link not counted); for a single-socket-only part (AMD EPYC 'P') "
        "the lanes of its 1-socket system",
    )
    pcie_gen: int | None = Field(
        default=None, ge=2, le=6, description="PCIe generation of those lanes (2 for the E5 v1 / Xeon 7500 era)"
    )
    max_memory_gb_per_socket: float | None = Field(
        default=None,
        ge=M.MIN_RAM_GB,
        le=100_000,
        description="the most RAM (DIMMs) one socket addresses, GB as DIMMs count it (1 TB = 1,024 GB): Intel's "
        "'Max Memory Size', AMD's memory capacity per socket (standard Cascade Lake SKUs 1 TB, M 2 TB, L 4.5 TB); "
        "none where the record does not give it (the memory_config rule then says it was not checked)",
    )


class Nic(Record):
    device_class: Literal["nic"] = "nic"
    ports: int = Field(gt=0, le=16)
    port_gbit_s: float = Field(ge=M.MIN_GBIT_S, le=1600)
    rdma: Literal["none", "roce", "iwarp"]
    #: a NIC whose RDMA protocol is chosen per function (Intel's E810: iWARP or RoCE v2), recorded by ``rdma`` as the
    #: one S2D's measurements ran; vSAN, RoCE v2 only, can use the other (verification walk 2026-11-30)
    also_roce: bool = Field(default=False, description="RoCE v2 selectable beside the recorded iWARP (source)")
    pcie_lanes: int | None = Field(default=None, ge=1, le=32, description="host PCIe link width, lanes")
    pcie_gen: int | None = Field(default=None, ge=2, le=6, description="host PCIe link generation (2: PCIe 2.x)")
    max_gbit_s: float | None = Field(
        default=None,
        ge=M.MIN_GBIT_S,
        le=3200,
        description="what the card's controller carries across all its ports per direction, Gb/s, where its "
        "source gives a figure below ports x port speed (null: no such limit known)",
    )

    @property
    def roce(self) -> bool:
        """Whether the NIC can run RoCE v2 (vSAN's only RDMA)."""
        return self.rdma == "roce" or self.also_roce


class Chassis(Record):
    device_class: Literal["chassis"] = "chassis"
    rack_units: int = Field(gt=0, le=10)
    drive_bays: int = Field(ge=0, le=200)
    bay_interfaces: list[Literal["nvme", "sas", "sata"]] = Field(min_length=1)
    cpu_sockets: int = Field(ge=1, le=8)
    cpu_socket_type: str = Field(min_length=1, description="must match the CPU's socket")
    dimm_slots: int = Field(ge=1, le=96)
    pmem_slots: int = Field(ge=0, le=96, description="DIMM slots that accept Optane PMem")
    pcie_slots: int = Field(ge=0, le=32)
    max_ram_gb: float = Field(ge=M.MIN_RAM_GB, le=100_000)
    memory_type: MemoryType | None = None
    validated_for: list[str] = Field(
        default_factory=list,
        description="programs that list this node, e.g. 'Azure Local'; named in source",
    )
    max_power_w: float | None = Field(
        default=None, ge=M.MIN_POWER_W, le=10_000, description="PSU rating or maximum configuration power, W"
    )
    nodes_per_enclosure: int = Field(
        default=1,
        ge=1,
        le=8,
        description="server nodes in one enclosure (2 for a cluster-in-a-box); cpu_sockets, dimm_slots, "
        "pcie_slots and max_ram_gb are per node",
    )
    shared_bays: bool = Field(
        default=False,
        description="the drive bays are one shared SAS JBOD reached by every node of the enclosure over "
        "dual-ported SAS (a cluster-in-a-box); false: each node owns its bays",
    )

    @model_validator(mode="after")
    def _shared_bays_need_nodes(self) -> Chassis:
        if self.shared_bays and self.nodes_per_enclosure < 2:
            raise ValueError("shared_bays: a shared SAS JBOD needs nodes_per_enclosure >= 2")
        return self


class MemoryModule(Record):
    """A DIMM (RDIMM/LRDIMM)."""

    device_class: Literal["memory_module"] = "memory_module"
    memory_type: MemoryType
    capacity_gb: float = Field(ge=M.MIN_CAPACITY_GB, le=1024, description="decimal GB")
    speed_mt_s: float = Field(ge=M.MIN_MEMORY_MT_S, le=12_800, description="data rate, MT/s")


class Switch(Record):
    """A top-of-rack Ethernet switch."""

    device_class: Literal["switch"] = "switch"
    ports: int = Field(gt=0, le=256, description="server-facing ports")
    port_gbit_s: float = Field(ge=M.MIN_GBIT_S, le=1600)
    lower_port_speeds_gbit_s: tuple[float, ...] = Field(
        default=(),
        description="slower speeds a server port also runs at, one link per port (a 200 GbE QSFP56 port takes a "
        "100 GbE QSFP28 cable); breakout cables are not counted",
    )
    uplink_ports: int = Field(default=0, ge=0, le=64)
    uplink_gbit_s: float | None = Field(default=None, ge=M.MIN_GBIT_S, le=1600)
    rack_units: int = Field(gt=0, le=10)
    rdma_dcb: bool = Field(description="supports PFC (802.1Qbb) and ETS (802.1Qaz) for RoCE")

    @model_validator(mode="after")
    def _lower_speeds(self) -> Switch:
        if any(not 0 < x < self.port_gbit_s for x in self.lower_port_speeds_gbit_s):
            raise ValueError(f"lower_port_speeds_gbit_s: each below the port speed {self.port_gbit_s:g} Gb/s")
        return self

    def serves(self, speed_gbit_s: float) -> bool:
        """Whether a server port at ``speed_gbit_s`` connects to one of its ports."""
        return speed_gbit_s == self.port_gbit_s or speed_gbit_s in self.lower_port_speeds_gbit_s


class Interconnect(Record):
    """A cable or pluggable optic between a server port and a switch port.

    ``dac``: passive copper (direct attach) cable of ``length_m``; ``aoc``: active
    optical cable of ``length_m``; ``transceiver``: one pluggable optic (a link needs
    two and a fibre, ``reach_m`` on OM4 multimode)."""

    device_class: Literal["interconnect"] = "interconnect"
    kind: Literal["dac", "aoc", "transceiver"]
    speed_gbit_s: float = Field(ge=M.MIN_GBIT_S, le=1600, description="port speed it carries, Gb/s")
    form_factor: Literal["sfp+", "sfp28", "sfp56", "qsfp+", "qsfp28", "qsfp56", "qsfp112", "qsfp-dd", "osfp"]
    length_m: float | None = Field(default=None, ge=M.MIN_CABLE_M, le=1000, description="cable length, m (dac, aoc)")
    reach_m: float | None = Field(
        default=None, ge=M.MIN_CABLE_M, le=100_000, description="longest link, m (transceiver, aoc)"
    )

    @model_validator(mode="after")
    def _length_or_reach(self) -> Interconnect:
        if self.kind in ("dac", "aoc") and self.length_m is None:
            raise ValueError(f"length_m: a {self.kind} cable has a length")
        if self.kind == "transceiver" and self.reach_m is None:
            raise ValueError("reach_m: a transceiver has a reach")
        return self


class RaidController(Record):
    """A hardware RAID controller (single server, local drives).

    ``max_iops`` is the controller processor's rate of 4 KiB drive commands
    (every backend IO a RAID level issues passes through it); ``latency_us``
    is what the controller adds to each IO.
    """

    device_class: Literal["raid_controller"] = "raid_controller"
    max_iops: float = Field(ge=M.MIN_IOPS, le=1e8, description="4 KiB IOs per second the controller processor handles")
    cache_gb: float = Field(ge=0, le=1000, description="controller cache (DRAM, battery/flash backed), decimal GB")
    host_link_mb_s: float = Field(ge=M.MIN_MB_S, le=1e6, description="host link (PCIe) bandwidth per direction, MB/s")
    drive_ports: int = Field(ge=1, le=1024, description="drive-side SAS/SATA lanes")
    port_gbit_s: float = Field(ge=M.MIN_GBIT_S, le=100, description="drive-side lane speed, Gb/s")
    latency_us: float = Field(ge=0, le=1e5, description="latency the controller adds per IO")
    mirror_reads: Literal["load-balanced", "primary"] = Field(
        default="load-balanced",
        description="RAID 1 / 1+0 reads: 'load-balanced' (in each mirrored pair the drive not busy answers, "
        "so both sides serve reads; HP Smart Array documents this 'load balancing') or 'primary' (one side "
        "of each pair reads)",
    )


class FcHba(Record):
    """A Fibre Channel host bus adapter."""

    device_class: Literal["fc_hba"] = "fc_hba"
    ports: int = Field(ge=1, le=8)
    fc_gfc: Literal[1, 2, 4, 8, 16, 32, 64] = Field(description="Fibre Channel speed class (4 = 4GFC)")
    max_iops_per_port: float | None = Field(default=None, ge=M.MIN_IOPS, le=1e8)


class SanArray(Record):
    """A Fibre Channel block array (dual controller, cache, drive shelf)."""

    device_class: Literal["san_array"] = "san_array"
    controllers: int = Field(ge=1, le=16)
    cache_gb_per_controller: float = Field(ge=0, le=10_000, description="decimal GB")
    host_ports_per_controller: int = Field(ge=1, le=64)
    fc_gfc: Literal[1, 2, 4, 8, 16, 32, 64]
    drive_bays: int = Field(ge=1, le=10_000)
    max_iops: float | None = Field(
        default=None, ge=M.MIN_IOPS, le=1e9, description="controller pair, 4 KiB random; null = not published"
    )
    max_read_mb_s: float = Field(
        ge=M.MIN_MB_S, le=1e6, description="array sequential read ceiling (controller pair), MB/s"
    )
    max_write_mb_s: float = Field(
        ge=M.MIN_MB_S, le=1e6, description="array sequential write ceiling (controller pair), MB/s"
    )
    latency_us: float = Field(ge=0, le=1e5, description="latency the array controller adds per IO (cache path)")


class FlashCard(Record):
    """A PCIe flash card (add-in card: Fusion-io ioDrive, NVMe AIC)."""

    device_class: Literal["flash_card"] = "flash_card"
    interface: Literal["pcie", "nvme"] = Field(description="pcie: vendor driver (ioMemory); nvme: NVMe")
    pcie_gen: int = Field(ge=1, le=6)
    pcie_lanes: int = Field(ge=1, le=16)
    capacity_tb: float = Field(ge=M.MIN_CAPACITY_TB, le=200, description="decimal TB")
    rand_read_4k_iops: float = Field(ge=M.MIN_IOPS, le=1e8)
    rand_write_4k_iops: float = Field(ge=M.MIN_IOPS, le=1e8)
    seq_read_mb_s: float = Field(ge=M.MIN_MB_S, le=1e6)
    seq_write_mb_s: float = Field(ge=M.MIN_MB_S, le=1e6)
    read_latency_us: float = Field(ge=M.MIN_DEVICE_LATENCY_US, le=1e5)
    write_latency_us: float = Field(ge=M.MIN_DEVICE_LATENCY_US, le=1e5)
    endurance_dwpd: float = Field(ge=M.MIN_DWPD, le=10_000)
    warranty_years: float = Field(default=5, ge=M.MIN_WARRANTY_YEARS, le=20)


Device = (
    CapacityDrive
    | CacheDevice
    | Cpu
    | Nic
    | Chassis
    | MemoryModule
    | Switch
    | RaidController
    | FcHba
    | SanArray
    | FlashCard
    | Interconnect
)
DEVICE_CLASSES: dict[str, type[Record]] = {
    "capacity_drive": CapacityDrive,
    "cache_device": CacheDevice,
    "cpu": Cpu,
    "nic": Nic,
    "chassis": Chassis,
    "memory_module": MemoryModule,
    "switch": Switch,
    "raid_controller": RaidController,
    "fc_hba": FcHba,
    "san_array": SanArray,
    "flash_card": FlashCard,
    "interconnect": Interconnect,
}


class Catalog(BaseModel):
    """All device records, by class and id."""

    model_config = ConfigDict(frozen=True)

    capacity_drive: dict[str, CapacityDrive] = Field(default_factory=dict)
    cache_device: dict[str, CacheDevice] = Field(default_factory=dict)
    cpu: dict[str, Cpu] = Field(default_factory=dict)
    nic: dict[str, Nic] = Field(default_factory=dict)
    chassis: dict[str, Chassis] = Field(default_factory=dict)
    memory_module: dict[str, MemoryModule] = Field(default_factory=dict)
    switch: dict[str, Switch] = Field(default_factory=dict)
    raid_controller: dict[str, RaidController] = Field(default_factory=dict)
    fc_hba: dict[str, FcHba] = Field(default_factory=dict)
    san_array: dict[str, SanArray] = Field(default_factory=dict)
    flash_card: dict[str, FlashCard] = Field(default_factory=dict)
    interconnect: dict[str, Interconnect] = Field(default_factory=dict)

    def of(self, device_class: str) -> dict[str, Record]:
        if device_class not in DEVICE_CLASSES:
            raise CatalogError(f"unknown device class '{device_class}'; one of {sorted(DEVICE_CLASSES)}")
        records: dict[str, Record] = getattr(self, device_class)
        return records

    def get(self, device_class: str, device_id: str) -> Record:
        records = self.of(device_class)
        if device_id not in records:
            raise KeyError(device_id)
        return records[device_id]

    def all_records(self) -> list[Record]:
        return [r for c in DEVICE_CLASSES for r in self.of(c).values()]


def _read_file(path: Path) -> tuple[str, list[dict[str, Any]]]:
    # one open, regular files only, at most the limit + 1 bytes read: a symlink to
    # /dev/zero, a FIFO or a file growing after a stat cannot exhaust memory or hang
    data = read_bounded(path, MAX_CATALOG_FILE_BYTES, path.name, CatalogError)
    return _read_bytes(data, path.name)


def _read_bytes(data: bytes, name: str) -> tuple[str, list[dict[str, Any]]]:
    doc = loads(data, name, CatalogError, MAX_CATALOG_FILE_BYTES)
    device_class = doc.get("device_class") if isinstance(doc, dict) else None
    if not isinstance(device_class, str) or device_class not in DEVICE_CLASSES:
        raise CatalogError(
            f"top level must be an object with 'device_class' one of {sorted(DEVICE_CLASSES)} and 'records'", name
        )
    records = doc.get("records")
    if not isinstance(records, list):
        raise CatalogError("'records' must be a list", name)
    return device_class, records


def parse_catalog_file(data: bytes, name: str = "catalog file") -> tuple[str, dict[str, Record]]:
    """A user's catalog file (uploaded, not on disk): its device class and validated records."""
    device_class, records = _read_bytes(data, name)
    return device_class, parse_records(device_class, records, name)


def parse_records(device_class: str, records: list[dict[str, Any]], origin: str) -> dict[str, Record]:
    """Validate raw records of one class; errors name file, id, field and reason."""
    cls = DEVICE_CLASSES[device_class]
    out: dict[str, Record] = {}
    for i, raw in enumerate(records):
        rid = raw.get("id") if isinstance(raw, dict) else None
        rid = rid if isinstance(rid, str) else f"#{i}"
        try:
            if isinstance(raw, dict):  # a record is JSON text's: its numbers are written as numbers
                numbers_written_as_numbers(cls, raw, CatalogError, "")
            rec = cls.model_validate(raw)
        except ValidationError as exc:
            # in the project's words with the value given ("capacity_tb: must be less than or equal to 200 (got
            # 1e+308)"), not pydantic's ("Input should be ...", "String should match pattern ..."; hostile-input walk)
            raise CatalogError(f"record {shown(rid)}: {format_validation_error(exc)}", origin) from None
        except CatalogError as exc:
            raise CatalogError(f"record {shown(rid)}: {exc.message}", origin) from None
        if rec.id in out:
            raise CatalogError(f"duplicate id '{rec.id}'", origin)
        out[rec.id] = rec
    return out


def validation_programs(catalog: Catalog) -> list[str]:
    """The programs the catalog's chassis are validated for (``validated_for``), sorted."""
    return sorted({p for ch in catalog.chassis.values() for p in ch.validated_for})


def _clash(device_class: str, rid: str, earlier: Record, where: str | None) -> str:
    """Why a record may not take ``rid``: a shipped part (``where`` None) or an earlier file's has it."""
    whose = "a shipped part" if where is None else f"already given in {where}"
    return (
        f"record {shown(rid)} is {whose} ({earlier.vendor} {earlier.model}, {device_class.replace('_', ' ')}); "
        "give your part an id of its own to use it beside that one"
    )


def load_catalog_dirs(dirs: tuple[Path, ...]) -> Catalog:
    """Load and merge catalog folders; no record may reuse an id already loaded (the shipped catalog's or another's).

    An id names one part in a design, its bill of materials and its file. A user's record with the shipped
    ``intel-p4510-1tb`` id at 7.68 TB made ``evaluate --catalog`` report 69.12 TB usable (9.00 shipped) while
    ``bom`` still named the shipped 1 TB drive, with no word (hostile-input walk): the Design page refuses
    such a part, and so does this, one rule for both."""
    merged: dict[str, dict[str, Record]] = {c: {} for c in DEVICE_CLASSES}
    origin: dict[tuple[str, str], str | None] = {}  # (class, id) -> the file that gave it (None: shipped)
    for d in dirs:
        d = Path(d)
        try:
            shipped = d == CATALOG_DIR  # load_catalog names it as it is
            paths = sorted(d.glob("*.json")) if d.is_dir() else None
            a_file = paths is None and d.is_file()
        except OSError as exc:
            raise CatalogError(
                f"cannot read catalog folder {shown(str(d))}: {(exc.strerror or '').lower()}", "catalog"
            ) from None
        except ValueError:  # a NUL character in the name
            raise CatalogError(f"catalog folder name {shown(str(d))} contains a NUL character", "catalog") from None
        if paths is None:
            if a_file:  # `--catalog my.json`: the folder holding it is what is meant
                raise CatalogError(
                    f"{shown(str(d))} is a file; give the folder that holds it ({shown(str(d.parent))})", "catalog"
                )
            raise CatalogError(f"catalog folder not found: {shown(str(d))}", "catalog")
        for path in paths:
            device_class, records = _read_file(path)
            for rid, rec in parse_records(device_class, records, path.name).items():
                if rid in merged[device_class]:
                    earlier = merged[device_class][rid]
                    raise CatalogError(_clash(device_class, rid, earlier, origin[device_class, rid]), path.name)
                merged[device_class][rid] = rec
                origin[device_class, rid] = None if shipped else path.name
    return Catalog(**merged)


@lru_cache(maxsize=8)
def _cached(dirs: tuple[str, ...]) -> Catalog:
    return load_catalog_dirs(tuple(Path(d) for d in dirs))


def load_catalog(extra_dir: str | Path | None = None) -> Catalog:
    """The built-in catalog, optionally extended by a user folder (cached)."""
    dirs = [str(CATALOG_DIR)]
    if extra_dir is not None:
        dirs.append(str(resolved(extra_dir, "catalog", CatalogError)))
    return _cached(tuple(dirs))
