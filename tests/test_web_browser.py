"""The web app in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``) driven by Selenium against the real server (uvicorn on a free
loopback port). Whole games of each game against the agent, by clicks only; the shown
scores and winner checked against the engine; a record loaded; screenshots kept under
``target/browser-artifacts`` and checked for being non-blank.

Marked ``browser``: ``pytest -m "not browser"`` leaves them out; without a browser they
skip, saying what to install."""

from __future__ import annotations

import random
import shutil
import socket
import threading
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
from territory.web.app import create_app  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[1] / "target" / "browser-artifacts"
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
MISSING = "needs Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver)"


@pytest.fixture(scope="module")
def server():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(search_seconds=30), host="127.0.0.1", port=port, log_level="warning")
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    instance.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    if not (BROWSER and DRIVER):
        pytest.skip(MISSING)
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1500,1200", "--disable-gpu"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_script_timeout(30)
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
    "return {busy: d.busy || '', ply: d.ply || '', clicks: d.clicks || '', over: d.over || '',"
    " picker: p.hidden ? [] : [...p.querySelectorAll('button[data-move]')].map(b => b.dataset.move)};"
)


def settle(driver, condition, timeout=30):
    """Waits until ``condition`` (a JavaScript expression over ``s``, the page's state:
    busy, ply, clicks, over, picker) holds, polling inside the page every 10 ms (one
    round trip instead of one per poll), and returns that state."""
    driver.set_script_timeout(timeout)
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1], test = new Function('s', 'return ' + arguments[0]);"
        f"const state = () => {{ {_PAGE_STATE} }};"
        "const tick = () => { const s = state(); if (test(s)) done(s); else setTimeout(tick, 10); };"
        "tick();",
        condition,
    )


def wait_idle(driver, timeout=30):
    wait(driver, timeout).until(lambda d: body(d, "busy") in ("", "0") and body(d, "ready") == "1")


def start(driver, url, game, params, mode="agent1", strength="100"):
    driver.get(url)
    wait_idle(driver)
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
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
    wait_idle(driver)


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
    return [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#history li")]


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
    assert f"seat {state.winner}" in result.text if state.winner is not None else "draw" in result.text
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
    field = driver.find_element(By.ID, "iterations")
    field.clear()
    field.send_keys(str(iterations))
    driver.find_element(By.ID, "analyse").click()
    wait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#analysis-board .heat"))
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
    rng = random.Random(3)
    start(browser, server, game, params)
    for _ in range(2):
        play_one_move(browser, rng, take_swap=False)
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
    wait(browser, 10).until(lambda d: "nothing to undo" in d.find_element(By.ID, "message").text)
    click(browser, browser.find_element(By.CSS_SELECTOR, '#board .highlight[data-cell="a2"]'))
    wait(browser, 10).until(picker_buttons)
    click(browser, browser.find_element(By.CSS_SELECTOR, '#picker button[data-move="a2=3"]'))
    wait(browser, 10).until(lambda d: body(d, "ply") == "1")
    wait_idle(browser)
    # An occupied cell starts no move: the page says so and sends nothing.
    click(browser, browser.find_element(By.CSS_SELECTOR, '#board .stone[data-cell="a2"]'))
    assert "no legal move starts at a2" in browser.find_element(By.ID, "message").text
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
    assert browser.find_element(By.ID, "status").text.startswith("Seat 0 (white, player 1) to move")
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
