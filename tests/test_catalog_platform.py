"""Platform figures in the catalog (memory data rate, PCIe lanes and generation):
the fields planner.physics.pcie_memory reads, checked against JEDEC data rates and PCIe link
widths, and each NIC's line rate against its host link."""

import pytest

from planner.models.catalog import load_catalog

# JEDEC DDR3/DDR4/DDR5 data rates, MT/s
JEDEC_MT_S = {
    800,
    1066,
    1333,
    1600,
    1866,
    2133,
    2400,
    2666,
    2933,
    3200,
    4000,
    4400,
    4800,
    5200,
    5600,
    6000,
    6400,
    8000,
    8800,
}
LINK_WIDTHS = {1, 2, 4, 8, 16}
# PCI-SIG per-lane rate per direction, MB/s: 8/16/32 GT/s with 128b/130b encoding
LANE_MB_S = {3: 8000 * 128 / 130 / 8, 4: 16000 * 128 / 130 / 8, 5: 32000 * 128 / 130 / 8}


@pytest.fixture(scope="module")
def cat():
    return load_catalog()


def test_every_cpu_has_platform_figures(cat):
    for c in cat.cpu.values():
        assert c.memory_mt_s in JEDEC_MT_S, c.id
        assert 16 <= c.pcie_lanes <= 160, c.id
        assert (2 if c.memory_type == "ddr3" else 3) <= c.pcie_gen <= 6, c.id  # PCIe 2.0 in the DDR3 era
        assert c.memory_channels in {4, 6, 8, 12}, c.id


def test_cpu_figures_follow_memory_type(cat):
    # DDR3 tops out at 1866 MT/s, DDR4 at 3200, DDR5 starts at 4000 in servers
    for c in cat.cpu.values():
        if c.memory_type == "ddr3":
            assert c.memory_mt_s <= 1866, c.id
        elif c.memory_type == "ddr4":
            assert c.memory_mt_s <= 3200, c.id
        elif c.memory_type == "ddr5":
            assert c.memory_mt_s >= 4000, c.id


def test_single_socket_epyc_counts_all_its_lanes(cat):
    # the definition in the schema: a 1-socket-only part gives its 1-socket figure
    for c in cat.cpu.values():
        if c.max_sockets == 1 and c.vendor == "AMD":
            assert c.pcie_lanes == 128, c.id


def test_nvme_devices_and_nics_have_link_widths(cat):
    for d in cat.capacity_drive.values():
        if d.interface == "nvme":
            assert d.pcie_lanes in LINK_WIDTHS, d.id
        else:
            assert d.pcie_lanes is None, d.id
    for c in cat.cache_device.values():
        if c.kind == "nvme":
            assert c.pcie_lanes in LINK_WIDTHS and c.pcie_gen is not None, c.id
        else:
            assert c.pcie_lanes is None and c.pcie_gen is None, c.id
    for n in cat.nic.values():
        assert n.pcie_lanes in LINK_WIDTHS and n.pcie_gen is not None, n.id


def nics_short_of_line_rate(cat) -> dict[str, tuple[float, float]]:
    """NICs whose ports at line rate need more than their host link carries,
    per direction: id -> (line rate MB/s, link MB/s)."""
    out = {}
    for n in cat.nic.values():
        line = n.ports * n.port_gbit_s / 8 * 1000
        link = n.pcie_lanes * LANE_MB_S[n.pcie_gen]
        if line > link:
            out[n.id] = (line, link)
    return out


def test_nics_short_of_line_rate_say_so(cat):
    # a real property of these cards (e.g. 2x 100G on a gen3 x16 link): the notes must say it
    short = nics_short_of_line_rate(cat)
    for nid in short:
        notes = cat.nic[nid].notes.lower()
        assert "pcie" in notes and ("cannot carry" in notes or "exceed" in notes), nid
    # the cards whose notes say they cannot run every port at once are the ones the link arithmetic finds
    said = {
        n.id for n in cat.nic.values() if "cannot carry" in n.notes.lower() or "exceed what pcie" in n.notes.lower()
    }
    assert said == set(short), (said, sorted(short))


@pytest.mark.parametrize(
    "device_class,field,bad",
    [
        ("capacity_drive", "pcie_lanes", {"interface": "sas"}),
        ("cache_device", "pcie_lanes", {"kind": "pmem"}),
        ("cache_device", "pcie_gen", {"kind": "sata"}),
    ],
)
def test_a_pcie_link_on_a_device_without_one_is_refused(cat, device_class, field, bad):
    """Only NVMe devices have a PCIe link of their own; a SAS/SATA drive sits
    behind an HBA and persistent memory in a DIMM slot."""
    from planner.core.errors import CatalogError
    from planner.models.catalog import parse_records

    pool = cat.capacity_drive if device_class == "capacity_drive" else cat.cache_device
    rec = next(r for r in pool.values() if getattr(r, "interface", getattr(r, "kind", None)) == "nvme")
    data = rec.model_dump(mode="json") | bad | {"pcie_gen": None, "pcie_lanes": None, field: 4}
    with pytest.raises(CatalogError, match=field):
        parse_records(device_class, [data], "test")


def test_a_nic_carries_what_its_host_link_and_controller_carry():
    """Hardware-architect walk: a node's NIC bandwidth was ports x speed, so a ConnectX-5 2 x 100 GbE on PCIe 3.0 x16
    (~126 Gb/s, its own record's notes), a ConnectX-6 Dx on PCIe 4.0 x16 and an E810-CQDA2 (~100 Gb/s across both
    ports, recalled) all counted 200 Gb/s. One implementation caps each card at its host link and its controller."""
    from planner.models.catalog import load_catalog
    from planner.physics.network import nic_bandwidth_bytes_s, nic_card_gbit_s

    nic = load_catalog().nic
    assert nic_card_gbit_s(nic["mellanox-cx5-2x100g"]) == pytest.approx(16 * 8000 * 128 / 130 / 1000)  # 126 Gb/s
    assert nic_card_gbit_s(nic["mellanox-cx6-dx-2x100g"]) == 200.0  # PCIe 4.0 x16 carries both ports
    assert nic_card_gbit_s(nic["intel-e810-2x100g"]) == 100.0
    assert nic_card_gbit_s(nic["mellanox-cx4-lx-2x25g"]) == 50.0  # PCIe 3.0 x8 (63 Gb/s) carries both 25G ports
    assert float(nic_bandwidth_bytes_s(nic["mellanox-cx5-2x100g"], 2)) == pytest.approx(2 * 126.03e9 / 8, rel=1e-3)


def test_a_design_s_node_bandwidth_is_its_cards_host_links():
    """The model's per-node bandwidth (an R760 with one ConnectX-5 2 x 100 GbE, the walk's o_cx5.json) is the card's
    PCIe 3.0 x16, no longer the 200 Gb/s of a ConnectX-6 Dx's ports."""
    from planner.engine.performance import _s2d_row
    from planner.models.design import Design, resolve

    def node_bw(nic: str) -> float:
        d = {
            "name": "r760-100g",
            "nodes": 4,
            "node": {
                "chassis": "dell-r760",
                "cpu": {"model": "intel-xeon-gold-6430", "sockets": 2},
                "ram_gb": 512,
                "capacity_drives": {"model": "micron-7450-pro-3.84tb", "count": 24},
                "nics": {"model": nic, "count": 1},
            },
            "resiliency": "mirror-3way",
            "transport": "rdma",
        }
        return float(_s2d_row(resolve(Design.model_validate(d)))["node_bandwidth_bytes_s"])

    assert node_bw("mellanox-cx5-2x100g") == pytest.approx(126.03e9 / 8, rel=1e-3)
    assert node_bw("mellanox-cx6-dx-2x100g") == pytest.approx(200e9 / 8)
    assert node_bw("intel-e810-2x100g") == pytest.approx(100e9 / 8)
