"""The web app in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``) driven by Selenium against the real server (uvicorn on a free
loopback port). Whole games of each game against the agent, by clicks only; the shown
scores and winner checked against the engine; a record loaded; screenshots kept under
``target/browser-artifacts`` and checked for being non-blank.

Marked ``browser``: ``pytest -m "not browser"`` leaves them out; without a browser they
skip, saying what to install."""

from __future__ import annotations

import contextlib
import random
import re
import shutil
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

pytest.importorskip("starlette", reason="needs the web extra (starlette, uvicorn)")
uvicorn = pytest.importorskip("uvicorn", reason="needs the web extra (starlette, uvicorn)")
webdriver = pytest.importorskip("selenium.webdriver", reason="needs selenium (pip install selenium)")

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

import territory  # noqa: E402
from territory.web.app import create_app, server as make_server  # noqa: E402
from territory.web.store import Store  # noqa: E402
from serving import serving as serve_app  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[1] / "target" / "browser-artifacts"
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
MISSING = "needs Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver)"


@contextlib.contextmanager
def serving(**options):
    """The app under uvicorn on a free loopback port, in a thread; yields its URL."""
    with serve_app(create_app(search_seconds=30, **options), make_server) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def server():
    with serving() as url:
        yield url


def new_browser():
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1500,1200", "--disable-gpu"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_script_timeout(30)
    return driver


@pytest.fixture(scope="module")
def browser():
    if not (BROWSER and DRIVER):
        pytest.skip(MISSING)
    driver = new_browser()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


# --- helpers ------------------------------------------------------------------------------


def wait(driver, timeout):
    """Waits polling every 20 ms (Selenium's default of 0.5 s would make up most of the run)."""
    return WebDriverWait(driver, timeout, poll_frequency=0.02)


def body(driver, key):
    return driver.execute_script(f"return document.body.dataset.{key} || ''")


_PAGE_STATE = (
    "const d = document.body.dataset, p = document.getElementById('picker');"
    "return {busy: d.busy === '1' || d.thinking === '1' ? '1' : (d.busy || ''), ply: d.ply || '', clicks: d.clicks || '', over: d.over || '',"
    " picker: p.hidden ? [] : [...p.querySelectorAll('button[data-move]')].map(b => b.dataset.move)};"
)


def settle(driver, condition, timeout=30):
    """Waits until ``condition`` (a JavaScript expression over ``s``, the page's state:
    busy, ply, clicks, over, picker) holds, polling inside the page every 10 ms (one
    round trip instead of one per poll), and returns that state."""
    driver.set_script_timeout(timeout)
    try:
        return _settle(driver, condition)
    except Exception as error:
        # Say what the page was doing (and keep its picture) rather than only "timeout".
        driver.save_screenshot(str(ARTIFACTS / "settle-timeout.png"))
        state = driver.execute_script(_PAGE_STATE)
        raise AssertionError(f"{condition!r} never held: page state {state}, status {driver.find_element(By.ID, 'status').text!r}") from error


def _settle(driver, condition):
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1], test = new Function('s', 'return ' + arguments[0]);"
        f"const state = () => {{ {_PAGE_STATE} }};"
        "const tick = () => { const s = state(); if (test(s)) done(s); else setTimeout(tick, 10); };"
        "tick();",
        condition,
    )


def wait_idle(driver, timeout=30):
    wait(driver, timeout).until(lambda d: body(d, "busy") in ("", "0") and body(d, "ready") == "1" and body(d, "thinking") != "1")


def start(driver, url, game, params, mode="agent1", strength="100", idle=True, agent="uct"):
    driver.get(url)
    wait_idle(driver)
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    Select(driver.find_element(By.ID, "agent")).select_by_value(agent)
    for name, value in params.items():
        field = driver.find_element(By.ID, f"param-{name}")
        if field.get_attribute("type") == "checkbox":
            if field.is_selected() != value:
                field.click()
        else:
            field.clear()
            field.send_keys(str(value))
    Select(driver.find_element(By.ID, "mode")).select_by_value(mode)
    Select(driver.find_element(By.ID, "strength")).select_by_value(strength)
    driver.find_element(By.ID, "start").click()
    wait(driver, 30).until(lambda d: body(d, "ply") != "")
    if idle:
        wait_idle(driver)


def start_and_play(driver, url, game, params, seed, moves=2, mode="humans", **options):
    """A new game (``start``) and ``moves`` moves entered by clicks, chosen by
    ``random.Random(seed)``; returns that generator."""
    start(driver, url, game, params, mode=mode, **options)
    rng = random.Random(seed)
    for _ in range(moves):
        play_one_move(driver, rng, take_swap=False)
    return rng


def click(driver, element):
    """A real mouse click at the element's centre (whatever is drawn on top gets it)."""
    ActionChains(driver, duration=0).move_to_element(element).click().perform()


def visible_targets(driver):
    return [h for h in driver.find_elements(By.CSS_SELECTOR, "#board .highlight:not(.off):not(.selected)")]


def picker_buttons(driver):
    if driver.find_element(By.ID, "picker").get_attribute("hidden") is not None:
        return []
    return driver.find_elements(By.CSS_SELECTOR, "#picker button[data-move]")


def play_one_move(driver, rng, take_swap, shot=None):
    """Enters one move by clicks: the pie swap if offered and wanted, a forced pass, or
    cells among the highlighted targets and then a choice from the picker. ``shot``:
    a screenshot's name, taken half-way through the move (a cell chosen, the picker open)."""
    ply = body(driver, "ply")
    buttons = {b.get_attribute("data-move"): b for b in driver.find_elements(By.CSS_SELECTOR, "#actions button[data-move]")}
    if "swap" in buttons and take_swap:
        click(driver, buttons["swap"])
    elif list(buttons) == ["pass"]:
        assert "must pass" in driver.find_element(By.ID, "actions").text
        click(driver, buttons["pass"])
    else:
        for _ in range(4):
            targets = visible_targets(driver)
            assert targets, "no highlighted target to click"
            clicks = body(driver, "clicks")
            click(driver, rng.choice(targets))
            now = settle(driver, f"s.busy === '0' && (s.ply !== {ply!r} || s.picker.length || s.clicks !== {clicks!r})")
            if now["ply"] != ply:
                break
            if shot:
                shoot(driver, shot)
                shot = None
            if now["picker"]:
                move = rng.choice(now["picker"])
                click(driver, driver.find_element(By.CSS_SELECTOR, f'#picker button[data-move="{move}"]'))
                break
    settle(driver, f"s.busy === '0' && s.ply !== {ply!r}")


def play_whole_game(driver, rng, max_moves=200, screenshot_at=None, name=""):
    took_swap = False
    for n in range(max_moves):
        if body(driver, "over") == "1":
            return
        shot = f"{name}-midgame" if n == screenshot_at else None
        play_one_move(driver, rng, take_swap=not took_swap, shot=shot)
        took_swap = took_swap or "swap" in shown_history(driver)
    raise AssertionError("the game did not end")


def shown_history(driver):
    """The moves of the line shown up to the current one."""
    return driver.execute_script(
        "const ply = Number(document.body.dataset.ply);"
        "return [...document.querySelectorAll('#history li')].slice(0, ply).map(li => li.dataset.move);"
    )


def check_against_engine(driver, game, params):
    """The scores, winner and reason shown agree with the engine replaying the moves shown."""
    state = territory.new_game(game, **params)
    for move in shown_history(driver):
        state.play(move)
    assert state.is_over
    shown = [driver.find_element(By.ID, f"score-{seat}").text for seat in (0, 1)]
    expected = [territory.record.format_score(s) for s in state.scores()]
    assert shown == expected
    result = driver.find_element(By.ID, "result")
    assert result.get_attribute("data-winner") == str(state.winner)
    names = driver.execute_script("return [...document.querySelectorAll('#scores .seat span:first-child')].map(e => e.textContent)")
    if state.winner is None:
        assert "draw" in result.text
    else:
        assert f"{names[state.winner]} wins" in result.text
        if "(agent)" in " ".join(names):
            assert result.text.startswith("You win" if "(you)" in names[state.winner] else "You lose")
    return state


def shoot(driver, name):
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    assert_not_blank(path)
    return path


def assert_not_blank(path):
    from PIL import Image

    with Image.open(path) as image:
        colors = image.convert("RGB").getcolors(maxcolors=1_000_000)
    assert colors is not None and len(colors) > 50, f"{path} looks blank"
    assert max(count for count, _ in colors) < 0.95 * sum(count for count, _ in colors), f"{path} is nearly one colour"


def analyse(driver, iterations=300):
    """Runs an analysis up to ``iterations`` and waits for its end (the candidates on the board)."""
    field = driver.find_element(By.ID, "iterations")
    field.clear()
    field.send_keys(str(iterations))
    driver.find_element(By.ID, "analyse").click()
    wait(driver, 30).until(lambda d: body(d, "analysing") == "0" and d.find_elements(By.CSS_SELECTOR, "#board .candidate"))
    wait_idle(driver)


# --- the games ----------------------------------------------------------------------------


GAMES = [
    ("tabik", {"size": 4}),
    ("nume", {"n": 2}),
    ("migong", {}),
]


@pytest.mark.parametrize("game, params", GAMES, ids=[g for g, _ in GAMES])
def test_a_whole_game_against_the_agent_by_clicks(server, browser, game, params):
    rng = random.Random(7)
    start(browser, server, game, params)
    play_whole_game(browser, rng, screenshot_at=3 if game != "migong" else 12, name=game)
    state = check_against_engine(browser, game, params)
    assert "wins" in browser.find_element(By.ID, "status").text or state.winner is None
    shoot(browser, f"{game}-over")


@pytest.mark.parametrize("game, params", GAMES, ids=[g for g, _ in GAMES])
def test_analysis_shows_a_heat_map_the_solver_and_the_graph(server, browser, game, params):
    start_and_play(browser, server, game, params, seed=3, mode="agent1")
    analyse(browser)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#analysis-moves tr")) > 1
    assert browser.find_elements(By.CSS_SELECTOR, "#graph .point")
    browser.find_element(By.ID, "solve").click()
    wait(browser, 30).until(lambda d: d.find_element(By.ID, "solver").text)
    text = browser.find_element(By.ID, "solver").text
    assert text.startswith("Exact:") or "too large" in text
    shoot(browser, f"{game}-analysis")


def test_the_solver_solves_a_small_tabik_board(server, browser):
    start(browser, server, "tabik", {"size": 3}, mode="humans")
    browser.find_element(By.ID, "solve").click()
    wait(browser, 30).until(lambda d: d.find_element(By.ID, "solver").text)
    exact = territory.solve(territory.Tabik(size=3))
    assert browser.find_element(By.ID, "solver").text.startswith(f"Exact: {'a loss' if exact.value < 0 else 'a win'}")


def test_loading_a_record_shows_its_moves_and_position(server, browser):
    state = territory.Tabik(size=5)
    for move in ("b2-b3", "swap", "c3-d3", "b3xc3"):
        state.play(move)
    browser.get(server)
    wait_idle(browser)
    area = browser.find_element(By.ID, "record-text")
    area.clear()
    area.send_keys(state.to_record())
    browser.find_element(By.ID, "load-record").click()
    wait(browser, 30).until(lambda d: body(d, "ply") == str(len(state.history)))
    wait_idle(browser)
    assert shown_history(browser) == state.history
    assert browser.find_element(By.ID, "position").get_attribute("value") == state.position()
    # The page's URL reopens the position.
    link = browser.find_element(By.ID, "permalink").get_attribute("href")
    browser.get(link)
    wait(browser, 30).until(lambda d: body(d, "ply") == "0")
    wait_idle(browser)
    assert browser.find_element(By.ID, "position").get_attribute("value") == state.position()
    shoot(browser, "tabik-loaded")


def test_an_illegal_click_changes_nothing_and_says_so(server, browser):
    start(browser, server, "nume", {"n": 1}, mode="humans")
    # Undo is refused with the server's message when there is nothing to undo.
    browser.find_element(By.ID, "undo").click()
    wait(browser, 10).until(lambda d: "Nothing to undo" in d.find_element(By.ID, "message").text)
    click(browser, browser.find_element(By.CSS_SELECTOR, '#board .highlight[data-cell="a2"]'))
    wait(browser, 10).until(picker_buttons)
    click(browser, browser.find_element(By.CSS_SELECTOR, '#picker button[data-move="a2=3"]'))
    wait(browser, 10).until(lambda d: body(d, "ply") == "1")
    wait_idle(browser)
    # An occupied cell starts no move: the page says so and sends nothing.
    click(browser, browser.find_element(By.CSS_SELECTOR, '#board .stone[data-cell="a2"]'))
    assert "No legal move starts at a2" in browser.find_element(By.ID, "message").text
    assert body(browser, "ply") == "1" and body(browser, "clicks") == "0"
    assert shown_history(browser) == ["a2=3"]


def test_two_people_the_pie_swap_undo_and_saving_the_record(server, browser):
    start(browser, server, "tabik", {"size": 3}, mode="humans")
    click(browser, browser.find_element(By.CSS_SELECTOR, '#board .highlight[data-cell="a1"]'))
    click(browser, browser.find_element(By.CSS_SELECTOR, '#board .highlight[data-cell="a2"]'))
    settle(browser, "s.busy === '0' && s.ply === '1'")
    # Seat 1 may take the pie swap: a button, not a click on the board.
    swap = browser.find_element(By.CSS_SELECTOR, '#actions button[data-move="swap"]')
    assert "pie rule" in swap.text
    click(browser, swap)
    settle(browser, "s.busy === '0' && s.ply === '2'")
    assert browser.find_element(By.ID, "status").text.startswith("White (player 1) to move")
    browser.find_element(By.ID, "save-record").click()
    wait(browser, 10).until(lambda d: "moves:" in d.find_element(By.ID, "record-text").get_attribute("value"))
    state = territory.Tabik(size=3)
    state.play("a1-a2")
    state.play("swap")
    assert browser.find_element(By.ID, "record-text").get_attribute("value") == state.to_record()
    browser.find_element(By.ID, "undo").click()
    settle(browser, "s.busy === '0' && s.ply === '1'")
    assert shown_history(browser) == ["a1-a2"]


def test_nume_komi_phase_choices_are_offered_off_the_board(server, browser):
    start(browser, server, "nume", {"n": 1, "komi_phase": True}, mode="humans")
    assert not visible_targets(browser)  # no stone before komi and sides are chosen
    Select(browser.find_element(By.ID, "move-list")).select_by_value("komi 2.5 white")
    browser.find_element(By.CSS_SELECTOR, "#actions button").click()
    settle(browser, "s.busy === '0' && s.ply === '1'")
    sides = [b.get_attribute("data-move") for b in browser.find_elements(By.CSS_SELECTOR, "#actions button[data-move]")]
    state = territory.Nume(n=1, komi_phase=True)
    state.play("komi 2.5 white")
    assert sides == state.legal_moves()
    assert shown_history(browser) == ["komi 2.5 white"]


# --- layout (issue 31, step 1) --------------------------------------------------------------


PHONE = (390, 844)


def screen(driver, width, height):
    """Emulates a screen of ``width`` x ``height`` CSS pixels (a phone: mobile, touch)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600,
    })


@pytest.fixture
def phone(browser):
    screen(browser, *PHONE)
    yield browser
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def rect(driver, selector):
    return driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return {left: r.left, right: r.right, top: r.top + scrollY, bottom: r.bottom + scrollY, width: r.width};",
        selector,
    )


@pytest.mark.parametrize("game, params", GAMES, ids=[g for g, _ in GAMES])
def test_on_a_desktop_the_side_panel_is_beside_the_board(server, browser, game, params):
    screen(browser, 1280, 900)
    try:
        start(browser, server, game, params, mode="humans")
        board, side = rect(browser, "#board svg"), rect(browser, "#side")
        assert side["left"] >= board["right"] - 1, (board, side)
        assert side["top"] < board["top"] + 100  # beside, not below
        assert rect(browser, "#scores")["top"] < board["bottom"] and rect(browser, "#history")["top"] < board["bottom"]
        assert browser.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        shoot(browser, f"{game}-desktop")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.parametrize("game, params", GAMES, ids=[g for g, _ in GAMES])
def test_on_a_phone_the_board_comes_first_full_width_and_nothing_scrolls_sideways(server, phone, game, params):
    start_and_play(phone, server, game, params, seed=1)
    width = phone.execute_script("return innerWidth")
    assert width == PHONE[0]
    assert phone.execute_script("return document.documentElement.scrollWidth") <= width
    board = rect(phone, "#board svg")
    assert board["left"] >= 0 and board["right"] <= width and board["width"] >= 0.9 * width
    assert board["top"] < rect(phone, "#side")["top"] and board["top"] < 150  # first, at the top of the screen
    shoot(phone, f"{game}-phone")


# --- replay and variations (step 2) ----------------------------------------------------------


def key(driver, name):
    from selenium.webdriver.common.keys import Keys

    node = body(driver, "node")
    ActionChains(driver, duration=0).send_keys(getattr(Keys, name)).perform()
    return node


def moves_in_list(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('#history li')].map(li => ({move: li.dataset.move,"
        " seat: li.className.match(/seat-(\\d)/)[1], number: li.querySelector('.number').textContent,"
        " current: li.classList.contains('current'), others: [...li.querySelectorAll('.others button')].map(b => b.textContent)}))"
    )


def test_stepping_through_a_game_by_keys_and_clicks_and_a_variation(server, browser):
    state = territory.Tabik(size=4)
    rng = random.Random(11)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    moves = list(state.history)
    browser.get(server)
    wait_idle(browser)
    area = browser.find_element(By.ID, "record-text")
    area.clear()
    area.send_keys(state.to_record())
    Select(browser.find_element(By.ID, "mode")).select_by_value("humans")
    browser.find_element(By.ID, "load-record").click()
    settle(browser, f"s.busy === '0' && s.ply === '{len(moves)}'")
    listed = moves_in_list(browser)
    assert [m["move"] for m in listed] == moves and listed[-1]["current"]
    assert [m["number"] for m in listed] == [f"{i}." for i in range(1, len(moves) + 1)]
    replay = territory.Tabik(size=4)
    assert [m["seat"] for m in listed] == [str(s) for s in _seats(replay, moves)]
    browser.find_element(By.TAG_NAME, "body").click()
    key(browser, "HOME")
    settle(browser, "s.busy === '0' && s.ply === '0'")
    assert shown_history(browser) == []
    for ply in (1, 2, 3):
        key(browser, "ARROW_RIGHT")
        settle(browser, f"s.busy === '0' && s.ply === '{ply}'")
    key(browser, "ARROW_LEFT")
    settle(browser, "s.busy === '0' && s.ply === '2'")
    expected = territory.Tabik(size=4)
    for move in moves[:2]:
        expected.play(move)
    assert browser.find_element(By.ID, "position").get_attribute("value") == expected.position()
    key(browser, "END")
    settle(browser, f"s.busy === '0' && s.ply === '{len(moves)}'")
    # A click on a move of the list goes to it.
    click(browser, browser.find_elements(By.CSS_SELECTOR, "#history li button.move")[3])
    settle(browser, "s.busy === '0' && s.ply === '4'")
    shoot(browser, "tabik-replay")
    # Another move from ply 4: a variation; the main line's move stays beside it.
    other = next(m for m in expected_after(moves[:4]).legal_moves() if m not in (moves[4], "swap", "pass"))
    cells = expected_after(moves[:4]).move_cells(other)
    for cell in cells:
        click(browser, browser.find_element(By.CSS_SELECTOR, f'#board .highlight[data-cell="{cell}"]'))
    settle(browser, "s.busy === '0' && s.ply === '5'")
    listed = moves_in_list(browser)
    assert [m["move"] for m in listed] == moves[:4] + [other] and listed[4]["others"] == [moves[4]]
    shoot(browser, "tabik-variation")
    # Back to the main line by its button: the whole main line again, the variation beside it.
    click(browser, browser.find_element(By.CSS_SELECTOR, "#history li .others button"))
    settle(browser, "s.busy === '0' && s.ply === '5'")
    key(browser, "END")
    settle(browser, f"s.busy === '0' && s.ply === '{len(moves)}'")
    listed = moves_in_list(browser)
    assert [m["move"] for m in listed] == moves and listed[4]["others"] == [other]


def expected_after(moves):
    state = territory.Tabik(size=4)
    for move in moves:
        state.play(move)
    return state


def _seats(state, moves):
    seats = []
    for move in moves:
        seats.append(state.to_move)
        state.play(move)
    return seats


def test_move_numbers_from_100_up_are_not_clipped(server, phone):
    state = territory.Migong()
    rng = random.Random(2)
    while len(state.history) < 110 and not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    assert len(state.history) >= 105
    view = territory.Migong()  # the same game, loaded as a record
    phone.get(server)
    wait_idle(phone)
    phone.execute_script("document.getElementById('record-text').value = arguments[0]", state.to_record())
    Select(phone.find_element(By.ID, "mode")).select_by_value("humans")
    phone.find_element(By.ID, "load-record").click()
    settle(phone, f"s.busy === '0' && s.ply === '{len(state.history)}'")
    clipped = phone.execute_script(
        "return [...document.querySelectorAll('#history .number, #history button.move')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth).map(e => e.textContent)"
    )
    assert clipped == []
    assert phone.execute_script("return document.querySelector('#history li:nth-child(105) .number').textContent") == "105."
    assert phone.execute_script("return document.documentElement.scrollWidth <= innerWidth")
    del view


# --- analysis on the main board (step 3) ------------------------------------------------------


def candidates(driver):
    """The candidate marks on the board: move -> (cells ringed, texts written)."""
    return driver.execute_script(
        "const found = {};"
        "for (const e of document.querySelectorAll('#board .candidates [data-move]')) {"
        "  const m = found[e.dataset.move] || (found[e.dataset.move] = {rings: 0, texts: [], best: false, preview: false});"
        "  if (e.tagName === 'circle') { m.rings += 1; m.best = m.best || e.classList.contains('best'); m.preview = m.preview || e.classList.contains('preview'); }"
        "  if (e.tagName === 'text') m.texts.push(e.textContent); }"
        "return found;"
    )


@pytest.mark.parametrize("game, params", GAMES, ids=[g for g, _ in GAMES])
def test_candidates_are_marked_on_the_board_itself(server, browser, game, params):
    start_and_play(browser, server, game, params, seed=4)
    analyse(browser, 2000)
    marks = candidates(browser)
    rows = [r.get_attribute("data-move") for r in browser.find_elements(By.CSS_SELECTOR, "#analysis-moves tr.row-move")]
    assert rows and set(marks) <= set(rows)
    best = rows[0]
    state = territory.new_game(game, **params)
    for move in shown_history(browser):
        state.play(move)
    assert marks[best]["best"] and marks[best]["rings"] == len(state.move_cells(best))
    if game == "tabik":
        assert all(m["rings"] == 2 for m in marks.values())  # both squares of every move
    else:
        label = best.split("=" if game == "nume" else ":", 1)[-1]
        assert marks[best]["texts"][0] == label  # the cell with its number or piece
    assert any("%" in t for t in marks[best]["texts"])  # the best labelled with its share and value
    assert browser.find_element(By.ID, "analysis-ply").text == "(move 2)"
    assert "2,000 iterations" in browser.find_element(By.ID, "analysis-count").text
    # A row under the mouse previews its move on the board.
    last = browser.find_elements(By.CSS_SELECTOR, "#analysis-moves tr.row-move")[-1]
    ActionChains(browser, duration=0).move_to_element(last).perform()
    wait(browser, 5).until(lambda d: candidates(d).get(last.get_attribute("data-move"), {}).get("preview"))
    shoot(browser, f"{game}-candidates")
    # The position changes: the analysis of move 2 is gone.
    key(browser, "ARROW_LEFT")
    settle(browser, "s.busy === '0' && s.ply === '1'")
    assert candidates(browser) == {} and browser.find_element(By.ID, "analysis-ply").text == ""


def test_a_continuous_analysis_counts_up_stops_and_follows_the_position(server, browser):
    start_and_play(browser, server, "migong", {}, seed=8, moves=1)
    field = browser.find_element(By.ID, "iterations")
    field.clear()
    field.send_keys("200000")
    browser.find_element(By.TAG_NAME, "body").click()
    ActionChains(browser, duration=0).send_keys("a").perform()  # the key to analyse
    wait(browser, 30).until(lambda d: int(body(d, "analysisIterations") or 0) >= 2000)
    assert body(browser, "analysing") == "1" and "searching" in browser.find_element(By.ID, "analysis-count").text
    shoot(browser, "migong-analysing")
    # Stepping back while it runs: it starts again on the new position, labelled with its move.
    key(browser, "ARROW_LEFT")
    settle(browser, "s.busy === '0' && s.ply === '0'")
    wait(browser, 30).until(lambda d: d.find_element(By.ID, "analysis-ply").text == "(move 0)" and int(body(d, "analysisIterations") or 0) >= 500)
    browser.find_element(By.ID, "stop").click()
    wait(browser, 5).until(lambda d: body(d, "analysing") == "0")
    count = body(browser, "analysisIterations")
    assert "stopped" in browser.find_element(By.ID, "analysis-count").text
    time.sleep(0.5)
    assert body(browser, "analysisIterations") == count and browser.find_element(By.ID, "analyse").is_displayed()


def test_the_solvers_value_and_line_come_with_the_analysis_on_a_small_board(server, browser):
    start(browser, server, "tabik", {"size": 3}, mode="humans")
    analyse(browser, 500)
    wait(browser, 30).until(lambda d: d.find_element(By.ID, "solver").text)
    exact = territory.solve(territory.Tabik(size=3))
    text = browser.find_element(By.ID, "solver").text
    assert text.startswith(f"Exact: {'a loss' if exact.value < 0 else 'a win'} for Black (player 1)")
    assert "line: " in text and text.split("line: ")[1].split(",")[0] in exact.best_moves


# --- the evaluation graph (step 4) ---------------------------------------------------------------


def test_the_graph_has_an_axis_hover_values_a_current_move_and_jumps(server, browser):
    start_and_play(browser, server, "tabik", {"size": 4}, seed=5, moves=3, mode="agent1")
    assert browser.find_element(By.ID, "graph-title").text == "Evaluation for Black (you)"
    browser.find_element(By.ID, "evaluate").click()
    ply = int(body(browser, "ply"))
    wait(browser, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#graph .point")) == ply + 1)
    axis = [t.text for t in browser.find_elements(By.CSS_SELECTOR, "#graph text")]
    assert {"+1", "0", "-1", str(ply)} <= set(axis)
    current = browser.find_element(By.CSS_SELECTOR, "#graph .current-ply")
    last = browser.find_element(By.CSS_SELECTOR, f'#graph .point[data-ply="{ply}"]')
    assert abs(float(current.get_attribute("x1")) - float(last.get_attribute("cx"))) < 0.5
    bar = browser.find_element(By.CSS_SELECTOR, '#graph .bar[data-ply="2"]')
    ActionChains(browser, duration=0).move_to_element(bar).perform()
    wait(browser, 5).until(lambda d: d.find_element(By.ID, "graph-hover").text.startswith("2. "))
    assert re.search(r"[+-]\d\.\d\d$", browser.find_element(By.ID, "graph-hover").text)
    click(browser, bar)
    settle(browser, "s.busy === '0' && s.ply === '2'")
    current = browser.find_element(By.CSS_SELECTOR, "#graph .current-ply")
    point = browser.find_element(By.CSS_SELECTOR, '#graph .point[data-ply="2"]')
    assert abs(float(current.get_attribute("x1")) - float(point.get_attribute("cx"))) < 0.5
    shoot(browser, "tabik-graph")


# --- a player's words (step 5) ---------------------------------------------------------------------


def test_errors_stand_beside_their_field_and_quote_what_was_typed(server, browser):
    start(browser, server, "tabik", {"size": 4}, mode="humans")
    field = browser.find_element(By.ID, "iterations")
    field.clear()
    field.send_keys("abc")
    browser.find_element(By.ID, "analyse").click()
    wait(browser, 10).until(lambda d: d.find_element(By.ID, "iterations-error").text)
    text = browser.find_element(By.ID, "iterations-error").text
    assert "'abc'" in text and "got 0" not in text and "200,000" in text
    Select(browser.find_element(By.ID, "game")).select_by_value("tabik")
    size = browser.find_element(By.ID, "param-size")
    size.clear()
    size.send_keys("abc")
    browser.find_element(By.ID, "start").click()
    wait(browser, 10).until(lambda d: d.find_element(By.ID, "param-size-error").text)
    assert "abc" in browser.find_element(By.ID, "param-size-error").text
    browser.find_element(By.ID, "record-text").send_keys("not a record")
    browser.find_element(By.ID, "load-record").click()
    wait(browser, 10).until(lambda d: d.find_element(By.ID, "record-error").text)
    shoot(browser, "errors")


# --- games kept (step 6) ----------------------------------------------------------------------------


def test_a_game_is_reopened_from_the_database_after_a_restart(browser, tmp_path):
    db = tmp_path / "games.sqlite"
    with serving(store=Store(db)) as url:
        start_and_play(browser, url, "tabik", {"size": 4}, seed=6, moves=3)
        moves = shown_history(browser)
        name = browser.find_element(By.ID, "game-name")
        name.clear()
        name.send_keys("Evening game")
        browser.find_element(By.ID, "rename").click()
        wait(browser, 10).until(lambda d: d.execute_script("const e = document.querySelector('#saved li.current .open'); return e && e.textContent") == "Evening game")
        key(browser, "ARROW_LEFT")
        settle(browser, "s.busy === '0' && s.ply === '2'")
        link = browser.find_element(By.ID, "game-link").get_attribute("href")
    # Another server on the same database, on another port: the link's path reopens the
    # whole game at move 2.
    with serving(store=Store(db)) as url:
        path = link.split("/", 3)[3]
        browser.get(f"{url}/{path}")
        settle(browser, "s.busy === '0' && s.ply === '2'")
        assert [m["move"] for m in moves_in_list(browser)] == moves
        assert browser.find_element(By.ID, "game-name").get_attribute("value") == "Evening game"
        shoot(browser, "tabik-reopened")
        # Upload a record file: a new game, listed too.
        state = territory.Nume(n=1)
        for move in ("a2=3", "b1=0", "a1"):
            state.play(move)
        record = tmp_path / "nume.txt"
        record.write_text(state.to_record())
        Select(browser.find_element(By.ID, "mode")).select_by_value("humans")
        browser.find_element(By.ID, "record-file").send_keys(str(record))
        settle(browser, "s.busy === '0' && s.ply === '3'")
        assert shown_history(browser) == state.history
        wait(browser, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#saved li")) == 2)
        # Delete the first game from the list.
        browser.execute_script("window.confirm = () => true")
        browser.execute_script("[...document.querySelectorAll('#saved li')].find(li => li.textContent.includes('Evening game')).querySelector('.delete').click()")
        wait(browser, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#saved li")) == 1)
    assert [g["name"] for g in Store(db).games()] != ["Evening game"] and len(Store(db).games()) == 1


# --- play (step 7) -----------------------------------------------------------------------------------


def test_a_second_browser_follows_the_game_live(server, browser):
    start(browser, server, "tabik", {"size": 4}, mode="humans")
    link = browser.find_element(By.ID, "game-link").get_attribute("href")
    second = new_browser()
    try:
        second.get(link)
        settle(second, "s.busy === '0' && s.ply === '0'")
        wait(second, 10).until(lambda d: d.find_element(By.ID, "live").text == "live")
        rng = random.Random(9)
        for ply in (1, 2):
            play_one_move(browser, rng, take_swap=False)
            settle(second, f"s.busy === '0' && s.ply === '{ply}'", timeout=10)
            assert shown_history(second) == shown_history(browser)
        shoot(second, "tabik-follower")
    finally:
        second.quit()


def test_the_player_steps_through_the_game_while_the_agent_thinks(server, browser):
    """Against a slow agent (Migong, 100,000 iterations a move, seconds here): the page
    shows it thinking with a running time, the iterations done and its best move so
    far; the player steps back meanwhile, and the agent's move still lands below the
    position it searched."""
    start(browser, server, "migong", {}, mode="agent1", strength="100000")
    rng = random.Random(3)
    ply = body(browser, "ply")
    targets = visible_targets(browser)
    click(browser, rng.choice(targets))
    picker = settle(browser, "s.picker.length > 0")["picker"]
    click(browser, browser.find_element(By.CSS_SELECTOR, f'#picker button[data-move="{picker[0]}"]'))
    wait(browser, 10).until(lambda d: body(d, "thinking") == "1")
    assert body(browser, "ply") == "1" and ply == "0"
    progress = r"thinking… \d+\.\d s: ([\d,]+) of 100,000 iterations, best so far (\S+) \([+-]\d\.\d\d for it\)"
    wait(browser, 10).until(lambda d: re.search(progress, d.find_element(By.ID, "thinking").text))
    first = int(browser.find_element(By.ID, "thinking").get_attribute("data-done"))
    wait(browser, 10).until(lambda d: int(d.find_element(By.ID, "thinking").get_attribute("data-done")) > first)  # it counts up
    best = re.search(progress, browser.find_element(By.ID, "thinking").text)[2]
    after = territory.Migong()
    after.play(picker[0])
    assert best in after.legal_moves()
    assert not browser.find_elements(By.ID, "agent-move")  # no "Let the agent move" while it does
    shoot(browser, "migong-thinking")
    key(browser, "HOME")
    wait(browser, 10).until(lambda d: body(d, "node") == "0" and body(d, "busy") == "0")
    assert body(browser, "thinking") == "1"  # still searching, and the player is at the start
    assert "position you left" in browser.find_element(By.ID, "thinking").text
    wait(browser, 60).until(lambda d: body(d, "thinking") == "0")
    assert body(browser, "ply") == "0"
    listed = moves_in_list(browser)
    assert len(listed) == 2 and listed[0]["move"] == picker[0] and listed[1]["seat"] == "1"


def test_move_now_makes_a_thinking_agent_move_at_once(server, browser):
    start(browser, server, "migong", {}, mode="agent0", strength="100000", idle=False)
    wait(browser, 10).until(lambda d: int(d.find_element(By.ID, "thinking").get_attribute("data-done") or 0) > 0)
    began = time.monotonic()
    browser.find_element(By.ID, "move-now").click()
    wait(browser, 20).until(lambda d: body(d, "thinking") == "0" and body(d, "ply") == "1")
    assert time.monotonic() - began < 10
    assert re.search(r"at once, after [\d,]+ of 100,000 iterations", browser.find_element(By.ID, "status").text)
    shoot(browser, "migong-moved-now")


@pytest.fixture
def deliberate_puct(monkeypatch):
    """The web board's learned model evaluating its network at every simulation
    (expansion at once), so that 20,000 simulations on Nume n = 3 take most of a second
    (with its own setting, the 32nd visit, a fifth of one: over before "Move now")."""
    import territory.puct

    class Deliberate(territory.puct.Puct):
        def __init__(self, *args, **options):
            super().__init__(*args, **options, expansion_visits=1)

    monkeypatch.setattr(territory.puct, "Puct", Deliberate)


def test_playing_the_learned_model_shows_its_progress_and_it_moves_now(server, browser, deliberate_puct):
    """Against the learned model (Nume n = 3, 20,000 simulations a move, each evaluated by
    the network: most of a second): the strengths are its simulations, its thinking is
    counted with its best move so far, "Move now" makes it play that move at once."""
    browser.get(server)
    wait_idle(browser)
    Select(browser.find_element(By.ID, "agent")).select_by_value("puct")
    assert "nume n=3" in browser.find_element(By.ID, "agent-note").text
    options = [o.text for o in Select(browser.find_element(By.ID, "strength")).options]
    assert options[-1] == "4: 20,000 simulations per move"
    start(browser, server, "nume", {"n": 3}, mode="agent0", strength="20000", idle=False, agent="puct")
    progress = r"thinking… \d+\.\d s: ([\d,]+) of 20,000 simulations, best so far (\S+)"
    wait(browser, 30).until(lambda d: re.search(progress, d.find_element(By.ID, "thinking").text))
    shoot(browser, "nume-model-thinking")
    browser.find_element(By.ID, "move-now").click()
    wait(browser, 20).until(lambda d: body(d, "thinking") == "0" and body(d, "ply") == "1")
    assert re.search(r"at once, after [\d,]+ of 20,000 simulations", browser.find_element(By.ID, "status").text)
    assert shown_history(browser)[0] in territory.Nume(n=3).legal_moves()


def test_on_a_phone_the_thinking_agent_and_the_ownership_fit_the_screen(server, phone, monkeypatch, deliberate_puct):
    """At 390 px: the learned model's progress line, then an analysis with an ownership
    map and a margin (a stand-in prediction), and nothing wider than the screen."""
    from territory.web import app as app_module
    from territory.web import session as session_module

    start(phone, server, "nume", {"n": 3}, mode="agent0", strength="20000", idle=False, agent="puct")
    wait(phone, 30).until(lambda d: "simulations, best so far" in d.find_element(By.ID, "thinking").text)
    assert phone.execute_script("return document.documentElement.scrollWidth <= innerWidth")
    shoot(phone, "nume-model-thinking-phone")
    phone.find_element(By.ID, "move-now").click()
    wait(phone, 20).until(lambda d: body(d, "thinking") == "0" and body(d, "ply") == "1")
    real = app_module.search

    def predicting(agent, state, stop=None, thinking=None):
        found = real(agent, state, stop, thinking)
        found.ownership, found.margin = session_module.prediction(state, {"d4": 0.9, "c1": -0.6}, 12.5)
        return found

    monkeypatch.setattr(app_module, "search", predicting)
    analyse(phone, 500)
    assert len(phone.find_elements(By.CSS_SELECTOR, "#board .owner")) == 2
    assert phone.execute_script("return document.documentElement.scrollWidth <= innerWidth")
    assert "Predicted margin: +12.5 points for" in phone.find_element(By.ID, "margin").text


def test_a_tabik_game_against_the_learned_model_by_clicks(server, browser):
    start(browser, server, "tabik", {"size": 6}, mode="agent1", strength="1000", agent="puct")
    rng = random.Random(12)
    for _ in range(3):
        play_one_move(browser, rng, take_swap=False)
        settle(browser, "s.busy === '0' && Number(s.ply) % 2 === 0")
    assert int(body(browser, "ply")) == 6
    assert "agent=puct" in browser.find_element(By.ID, "permalink").get_attribute("href")
    assert browser.find_element(By.ID, "status").text.startswith("Agent played ")
    shoot(browser, "tabik-model-game")


def test_an_agent_s_ownership_and_margin_are_drawn_on_the_board(server, browser, monkeypatch):
    """An agent that predicts who holds each cell and the margin (a stand-in here, until
    the learned models give them): squares of the holder's colour on the board, the
    margin beside the analysis; hidden by the checkbox; none with UCT alone."""
    from territory.web import app as app_module
    from territory.web import session as session_module

    start_and_play(browser, server, "tabik", {"size": 6}, seed=13)
    analyse(browser, 500)
    assert body(browser, "ownership") == "0" and not browser.find_elements(By.CSS_SELECTOR, "#board .owner")
    assert not browser.find_element(By.ID, "ownership-box").is_displayed()
    real = app_module.search
    cells = [c.name for c in territory.geometry.board_of(territory.Tabik(size=6)).cells]

    def predicting(agent, state, stop=None, thinking=None):
        found = real(agent, state, stop, thinking)
        # Left half the player to move's, right half the other's, surer at the edges.
        found.ownership, found.margin = session_module.prediction(
            state, [(2.5 - i % 6) / 2.5 for i in range(len(cells))], -3.5)
        return found

    monkeypatch.setattr(app_module, "search", predicting)
    analyse(browser, 500)
    owners = browser.execute_script(
        "return [...document.querySelectorAll('#board .owner')].map(e => [e.dataset.cell, e.dataset.seat, e.getAttribute('fill')])")
    assert len(owners) == len(cells) and body(browser, "ownership") == str(len(cells))
    to_move = int(browser.execute_script("return view.to_move"))
    colors = browser.execute_script("return view.colors")
    for cell, seat, fill in owners:
        i = cells.index(cell)
        assert int(seat) == (to_move if i % 6 < 3 else 1 - to_move) and fill == colors[int(seat)]
    margin = browser.find_element(By.ID, "margin").text
    assert margin.startswith("Predicted margin: -3.5 points for ")
    shoot(browser, "tabik-ownership")
    browser.find_element(By.ID, "show-ownership").click()
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .owner")
    browser.find_element(By.ID, "show-ownership").click()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .owner")) == len(cells)
    browser.execute_script("document.activeElement.blur()")  # the keys go to the page, not the checkbox
    key(browser, "ARROW_LEFT")  # another position: the finished analysis, and its ownership, cleared
    settle(browser, "s.busy === '0' && s.ply === '1'")
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .owner") and body(browser, "ownership") == "0"


@pytest.mark.parametrize("agent_seat", [1, 0])
def test_the_graph_is_drawn_for_the_viewer_and_flags_the_biggest_swing(browser, tmp_path, agent_seat):
    """A kept game with known evaluations (for seat 0): 0, +0.1, +0.2, -0.6, -0.5. Move 3
    (seat 0's) loses 0.8 for its mover: the one swing flagged, whoever views; the curve is
    drawn for the viewer (you: seat 0 against an agent in seat 1, else seat 1)."""
    store = Store(tmp_path / "games.sqlite")
    moves, values = ["a1-a2", "c3-c4", "b1-b2", "d1-d2"], [0.0, 0.1, 0.2, -0.6, -0.5]
    nodes = [[None, None, None, values[0]]] + [[m, i, i % 2, values[i + 1]] for i, m in enumerate(moves)]
    data = {"id": "known", "game": "tabik", "params": territory.Tabik(size=4).params, "position": territory.Tabik(size=4).position(),
            "mode": "agent", "agent_seat": agent_seat, "strength": 100, "seed": 0, "nodes": nodes, "current": 4}
    store.save("known", "known", "tabik", 4, data)
    with serving(store=store) as url:
        browser.get(f"{url}/?game_id=known&node=4")
        settle(browser, "s.busy === '0' && s.ply === '4'")
        viewer = 1 - agent_seat
        assert browser.find_element(By.ID, "graph-title").text.endswith("(you)")
        assert ("Black" if viewer == 0 else "White") in browser.find_element(By.ID, "graph-title").text
        assert [s.get_attribute("data-ply") for s in browser.find_elements(By.CSS_SELECTOR, "#graph .swing")] == ["3"]
        assert browser.find_element(By.ID, "swings").text == "Biggest swings: 3. b1-b2 (Black (" + ("you" if viewer == 0 else "agent") + "), -0.80)"
        # Above the zero line when good for the viewer: the point of move 3 is below it for seat 0's viewer.
        zero = browser.execute_script("return [...document.querySelectorAll('#graph line')].find(l => l.getAttribute('stroke-dasharray')).getAttribute('y1')")
        y3 = float(browser.find_element(By.CSS_SELECTOR, '#graph .point[data-ply="3"]').get_attribute("cy"))
        assert (y3 > float(zero)) == (viewer == 0)
