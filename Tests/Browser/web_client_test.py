#!/usr/bin/env python3
"""The web client in a real browser against the real server.

Starts the routemap binary on a free port with a temporary database, drives Debian's headless
Chromium with selenium through a till's day (enroll, add items, check out, a link to the summary
on screen, pay cash, reload, open deep links; then an order on a page that declares only the
containers native, so the menu and the bill come as component trees its generic renderer draws),
then a game of trivia on the same device (`/?app=trivia`: the difficulty popover, back from a
game and a walk from the options it uncovers, a game to its results, play again, both options'
Change tapped quickly, the no-data screen through the category sheet), then
double-clicks on a slow network (Void, +, Pay, Play, an answer: each sends the request it showed,
once), then modifiers (a latte given groups by a manager: its sheet, Add held back until a size
is chosen, the options on the bill's lines and the summary, a refusal shown in the sheet), then a server that answers late, not at all or 429 (a change held up by a locked database, answers
lost on their way back, a bill paid elsewhere, quick taps over the rate limit, a refusal among
them that must stay on screen, a menu changed by a manager, an item named with 100 characters and no space), and checks what the page shows after each step. A screenshot of each state goes to
--screenshots. Exits 1 on the first failed check, with a screenshot, the page's HTML and the
server's log of that moment.

    Tests/Browser/web_client_test.py --binary .build/debug/routemap --screenshots .build/browser-screenshots
"""

import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
ENROLLMENT_CODE = "browser-test-code"
MANAGER_ENROLLMENT_CODE = "browser-test-manager-code"
TAX_RATE_BPS = 875  # the server's default, which the test starts it with explicitly


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


# ---- the server ----------------------------------------------------------------------------


class Server:
    """`routemap serve` on a free port with a fresh database in a temporary directory."""

    def __init__(self, binary, public=ROOT / "Public", arguments=()):
        self.directory = tempfile.TemporaryDirectory(prefix="routemap-browser-")
        self.log_path = Path(self.directory.name) / "server.log"
        self.database_path = Path(self.directory.name) / "browser.sqlite"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [
                binary, "serve", "--port", "0", "--db", str(self.database_path),
                "--migrations", str(ROOT / "Migrations"), "--public", str(public),
                "--enrollment-code", ENROLLMENT_CODE, "--rate-limit", "0", "--tax-rate-bps", str(TAX_RATE_BPS),
                "--log-level", "warning", *arguments,
            ],
            stdout=subprocess.PIPE, stderr=self.log, text=True,
        )
        self.url = None
        deadline = time.monotonic() + 30
        while self.url is None and time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            match = re.match(r"routemap listening on (http://\S+)", line)
            if match:
                self.url = match.group(1)
        if self.url is None:
            self.stop()
            raise CheckFailed(f"routemap did not start:\n{self.log_path.read_text()}")

    def get_json(self, path, token):
        return self.send_json("GET", path, token)

    def send_json(self, method, path, token, body=None, headers=None):
        """The JSON answer; a 429 (a server started with a rate limit) is asked again after its Retry-After."""
        data = None if body is None else json.dumps(body).encode()
        headers = {**({"Authorization": f"Bearer {token}"} if token else {}), **(headers or {})}
        if data is not None:
            headers["Content-Type"] = "application/json"
        for _ in range(10):
            request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    text = response.read()
                    return json.loads(text) if text else None
            except urllib.error.HTTPError as error:
                if error.code != 429:
                    raise
                time.sleep(int(error.headers.get("Retry-After", "1")))
        raise CheckFailed(f"{method} {path} was refused 429 ten times")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def cleanup(self):
        self.stop()
        self.directory.cleanup()


# ---- the browser ---------------------------------------------------------------------------


def start_browser():
    options = Options()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,860", "--lang=en-US", "--no-first-run", "--disable-extensions"]:
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": "en-US"})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"),
                      env={**os.environ, "LANG": "en_US.UTF-8", "LANGUAGE": "en_US"})
    return webdriver.Chrome(options=options, service=service)


class Page:
    """Shorthands over the driver, with waits that fail with a message."""

    def __init__(self, driver, screenshots):
        self.driver = driver
        self.screenshots = screenshots
        self.shots = 0

    def wait(self, condition, message, timeout=10):
        try:
            return WebDriverWait(self.driver, timeout).until(lambda driver: condition())
        except TimeoutException:
            raise CheckFailed(f"timed out: {message}") from None

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def script(self, source, *arguments):
        return self.driver.execute_script(source, *arguments)

    def idle(self):
        """Waits until no request is in flight and no alert is shown (a problem the server answered)."""
        self.wait(lambda: self.script("return !document.body.hasAttribute('aria-busy')"), "the page to finish its requests")
        alert = self.find("#alert")
        check(not alert.is_displayed(), f"the page shows a problem: {alert.text}")

    def tab_to(self, css, limit=80):
        """Presses Tab (from where focus is) until the focused element matches `css`."""
        for _ in range(limit):
            ActionChains(self.driver).send_keys(Keys.TAB).perform()
            if self.script("return document.activeElement.matches(arguments[0])", css):
                return
        raise CheckFailed(f"{limit} presses of Tab never reached {css}")

    def press(self, key):
        ActionChains(self.driver).send_keys(key).perform()

    def double_click(self, css):
        ActionChains(self.driver).double_click(self.find(css)).perform()

    def network(self, delay=0, lose=None, losses=0):
        """Until the page loads again, the page's requests go through a network the test controls
        (its `fetch`, wrapped): each waits `delay` ms before it leaves (a slow network: the second
        click of a double-click comes before the first's answer), the answers to the next `losses`
        requests whose URL matches the pattern `lose` are lost on their way back (the server
        performed them), and every request is recorded for `sent`."""
        self.script("""
            const [delay, lose, losses] = arguments;
            if (!window.testNetwork) {
              const fetchNow = window.fetch;
              window.testNetwork = { sent: [] };
              window.fetch = async (url, init = {}) => {
                const network = window.testNetwork;
                network.sent.push({ method: init.method ?? 'GET', url: String(url), body: init.body ?? null,
                                    key: init.headers?.['Idempotency-Key'] ?? null });
                if (network.delay) await new Promise((resolve) => setTimeout(resolve, network.delay));
                const response = await fetchNow(url, init);
                if (network.losses > 0 && new RegExp(network.lose).test(String(url))) {
                  network.losses -= 1;
                  throw new TypeError('the answer was lost on its way (test)');
                }
                return response;
              };
            }
            Object.assign(window.testNetwork, { delay, lose, losses });""", delay, lose, losses)

    def sent(self, method, path_pattern):
        """The requests recorded since `network` with `method` and a URL matching `path_pattern`."""
        return [request for request in self.script("return window.testNetwork.sent")
                if request["method"] == method and re.search(path_pattern, request["url"])]

    def alert_text(self):
        return self.script("const alert = document.getElementById('alert'); return alert.hidden ? null : alert.textContent.replace('Dismiss', '').trim()")

    def screenshot(self, name):
        self.wait(lambda: self.script("return document.getAnimations().every((animation) => animation.playState !== 'running')"),
                  "animations to finish before the screenshot")
        self.shots += 1
        path = self.screenshots / f"{self.shots:02d}-{name}.png"
        self.driver.save_screenshot(str(path))
        print(f"  screenshot {path}")

    def bill(self):
        """What the bill pane shows: id, status, lines {menuItemId: quantity}, totals in minor units."""
        return self.script("""
            const bill = document.querySelector('[data-route="bill"]');
            if (!bill) return null;
            const minor = (css) => Number(bill.querySelector(css)?.dataset.minor);
            return {
              id: bill.dataset.billId, status: bill.dataset.status,
              lines: Object.fromEntries([...bill.querySelectorAll('.line')].map((line) => [line.dataset.menuItemId, Number(line.dataset.quantity)])),
              subtotal: minor('.subtotal'), tax: minor('.tax'), total: minor('.total'),
              totalText: bill.querySelector('.total')?.textContent,
            };""")


def money(minor):
    return f"${minor // 100}.{minor % 100:02d}"


def expected_totals(prices, quantities):
    """The README's rule: tax per line, rounded half to even, summed."""
    subtotal = tax = 0
    for item, quantity in quantities.items():
        line = prices[item] * quantity
        subtotal += line
        tax += int((Decimal(line) * TAX_RATE_BPS / 10000).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))
    return subtotal, tax, subtotal + tax


# ---- the scenario --------------------------------------------------------------------------


def run(page, server):
    driver = page.driver

    print("enroll: type the code once")
    driver.get(server.url + "/")
    page.wait(lambda: page.find("#enroll").is_displayed(), "the enrollment form")
    page.find("#enroll-code").send_keys(ENROLLMENT_CODE)
    page.find("#enroll-form button[type=submit]").click()
    page.wait(lambda: page.bill() is not None, "the bill after enrolling")
    page.idle()
    token = page.script("return localStorage.getItem('routemap.token')")
    check(token and token.startswith("rmt_"), f"no device token kept in localStorage: {token!r}")
    check(not page.find("#enroll").is_displayed(), "the enrollment form is still shown")
    check(page.find('[role="tab"][aria-selected="true"]').text == "Order", "the Order tab is not selected")
    check(len(page.find_all('[data-route="menu"] .menu-item')) > 5, "the menu shows no items")
    first_bill = page.bill()
    check(first_bill["status"] == "open" and first_bill["lines"] == {}, f"a new till's bill is not open and empty: {first_bill}")
    page.screenshot("enrolled")

    print("tap three menu items, one twice")
    prices = {item["id"]: item["priceMinor"] for item in server.get_json("/v1/menu/items", token)["items"]}
    taps = ["latte", "croissant", "latte", "espresso"]
    for count, item in enumerate(taps, start=1):
        page.find(f'[data-route="menu"] button[data-item-id="{item}"]').click()
        page.wait(lambda: sum(page.bill()["lines"].values()) == count, f"{count} items on the bill")
    page.idle()
    bill = page.bill()
    quantities = {"latte": 2, "croissant": 1, "espresso": 1}
    check(bill["lines"] == quantities, f"the bill's lines are {bill['lines']}, not {quantities}")
    subtotal, tax, total = expected_totals(prices, quantities)
    check((bill["subtotal"], bill["tax"], bill["total"]) == (subtotal, tax, total),
          f"the bill shows {bill['subtotal']}+{bill['tax']}={bill['total']}, not {subtotal}+{tax}={total}")
    check(bill["totalText"] == money(total), f"the total reads {bill['totalText']!r}, not {money(total)!r}")
    check(bill["id"] == first_bill["id"], "the items went to another bill")
    page.screenshot("bill")

    print("check out: the summary is presented as a modal")
    page.find('[data-route="bill"] button[data-action="checkout"]').click()
    page.wait(lambda: page.find_all('dialog[open][data-presented="orderSummary"]'), "the order summary")
    page.idle()
    check(page.script("return document.querySelector('dialog[data-presented=\"orderSummary\"]').matches(':modal')"),
          "the order summary is not shown modally")
    check(page.script("return document.activeElement.closest('dialog') !== null"), "focus did not move into the order summary")
    summary = page.find('dialog[data-presented="orderSummary"]')
    check(f"{total // 100}.{total % 100:02d} USD" in summary.text, f"the summary does not show the total {total}: {summary.text}")
    check(page.bill()["status"] == "checked_out", "the bill is not checked out")
    check(not page.find_all('[data-route="bill"] button[data-action="checkout"]'), "a checked-out bill still offers checkout")
    page.screenshot("summary")

    print("a link to the summary already on screen: the checkout's steps moved the page's stack, so it shows once")
    driver.get(f"{server.url}/#routemap://bills/{bill['id']}/summary")
    page.wait(lambda: page.script("return location.hash") == "", "the deep link to be opened")
    page.idle()
    check(not page.find("#alert").is_displayed(), f"the link was refused: {page.find('#alert-text').text!r}")
    summaries = len(page.find_all('dialog[open][data-presented="orderSummary"]'))
    check(summaries == 1, f"{summaries} order summaries are presented")
    summary = page.find('dialog[data-presented="orderSummary"]')

    print("pay part by card (split tender): the summary stays, showing what is still due, without cancel or void")
    part = summary.find_element(By.CSS_SELECTOR, 'form[data-action="payPart"]')
    part.find_element(By.CSS_SELECTOR, 'input[name="method"][value="card"]').click()
    check("Amount paid now" in part.text, f"the partial payment's amount is not labelled as such: {part.text}")
    part.find_element(By.CSS_SELECTOR, 'input[name="amountMinor"]').send_keys("1.00")
    part.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    page.wait(lambda: server.get_json(f"/v1/bills/{bill['id']}", token)["paidMinor"] == 100, "the partial payment")
    page.idle()
    check(not page.find("#alert").is_displayed(), f"the partial payment was refused: {page.find('#alert-text').text!r}")
    partly = server.get_json(f"/v1/bills/{bill['id']}", token)
    check(partly["status"] == "checked_out" and partly["dueMinor"] == total - 100, f"the bill after paying part: {partly}")
    summary = page.find('dialog[open][data-presented="orderSummary"]')
    check(f"Pay {usd(total - 100)}" in summary.text, f"the summary does not offer to pay what is due: {summary.text}")
    check(not summary.find_elements(By.CSS_SELECTOR, '[data-action="cancel"], [data-action="void"]'),
          "a partly paid bill's summary still offers cancel or void")
    page.screenshot("partly-paid")
    total -= 100

    print("card takes no tender: the field is disabled and emptied while card is chosen")
    tendered = summary.find_element(By.CSS_SELECTOR, 'input[name="tenderedMinor"]')
    tendered.send_keys("5")
    summary.find_element(By.CSS_SELECTOR, 'input[name="method"][value="card"]').click()
    check(not tendered.is_enabled() and tendered.get_attribute("value") == "",
          f"with card chosen, Cash tendered is {'enabled' if tendered.is_enabled() else 'disabled'} and reads {tendered.get_attribute('value')!r}")

    print("pay cash with a tender: the modal goes, the next bill is empty")
    summary.find_element(By.CSS_SELECTOR, 'input[name="method"][value="cash"]').click()
    check(tendered.is_enabled(), "with cash chosen again, Cash tendered stays disabled")
    summary.find_element(By.CSS_SELECTOR, 'input[name="tenderedMinor"]').send_keys("20.00")
    summary.find_element(By.CSS_SELECTOR, 'form[data-action="pay"] button[type="submit"]').click()
    page.wait(lambda: not page.find_all('dialog[data-presented="orderSummary"]'), "the order summary to be dismissed")
    page.idle()
    next_bill = page.bill()
    check(next_bill["id"] != first_bill["id"], "the bill pane still shows the paid bill")
    check(next_bill["status"] == "open" and next_bill["lines"] == {} and next_bill["total"] == 0,
          f"the next bill is not open and empty: {next_bill}")
    change = page.find("#status").text
    check(change == f"Change due: {money(2000 - total)}", f"the change reads {change!r}")
    check(page.script("return document.activeElement.dataset.focusKey") == "bill:checkout",
          "focus did not come back to the bill's checkout control")
    paid = server.get_json(f"/v1/bills/{first_bill['id']}", token)
    check(paid["status"] == "paid", f"the server says the first bill is {paid['status']}")
    page.screenshot("paid")

    print("reload: still the same till")
    driver.refresh()
    page.wait(lambda: page.bill() is not None, "the bill after reloading")
    page.idle()
    check(not page.find("#enroll").is_displayed(), "the reloaded page asks to enroll again")
    check(page.script("return localStorage.getItem('routemap.token')") == token, "the reloaded page has another token")
    check(page.bill()["id"] == next_bill["id"], "the reloaded page shows another bill than this till's current one")
    page.screenshot("reloaded")

    print("the keyboard alone: add two items and remove them again; the focus stays on the bill")
    page.tab_to('[data-route="menu"] button[data-item-id="cappuccino"]')
    page.press(Keys.ENTER)
    page.wait(lambda: page.bill()["lines"] == {"cappuccino": 1}, "the cappuccino added with Enter")
    page.idle()
    page.tab_to('[data-route="menu"] button[data-item-id="espresso"]')
    page.press(Keys.ENTER)
    page.wait(lambda: page.bill()["lines"] == {"cappuccino": 1, "espresso": 1}, "the espresso added with Enter")
    page.idle()
    page.tab_to('[data-route="bill"] .line[data-menu-item-id="cappuccino"] button.remove')
    page.press(Keys.SPACE)
    page.wait(lambda: page.bill()["lines"] == {"espresso": 1}, "the cappuccino removed with Space")
    page.idle()
    focused = page.script("return document.activeElement.getAttribute('aria-label')")
    check(focused == "Remove Espresso", f"after a line was removed the focus is on {focused!r}, not the next line's Remove")
    page.press(Keys.SPACE)
    page.wait(lambda: page.bill()["lines"] == {}, "the espresso removed with Space")
    page.idle()
    focused = page.script("return document.activeElement.closest('[data-route=\"bill\"]') ? document.activeElement.textContent : document.activeElement.tagName")
    check(focused == "Bill", f"after the last line was removed the focus is on {focused!r}, not the bill's title")

    print("void the bill with a reason: refused without one, then a new bill takes its place")
    voided_id = page.bill()["id"]
    void_form = page.find('[data-route="bill"] form[data-action="void"]')
    void_form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    page.wait(lambda: page.find('[data-route="bill"] form[data-action="void"] .field-error').text == "Enter a reason.",
              "the missing reason's error")
    check(server.get_json(f"/v1/bills/{voided_id}", token)["status"] == "open", "a void without a reason was sent")
    page.find('[data-route="bill"] form[data-action="void"] input[name="reason"]').send_keys("opened by mistake")
    page.find('[data-route="bill"] form[data-action="void"] button[type="submit"]').click()
    page.wait(lambda: page.bill()["id"] != voided_id, "the bill pane to show a new bill after the void")
    page.idle()
    check(page.bill()["status"] == "open" and page.bill()["lines"] == {}, f"the bill after the void: {page.bill()}")
    voided = server.get_json(f"/v1/bills/{voided_id}", token)
    check(voided["status"] == "voided" and voided["void"]["reason"] == "opened by mistake", f"the server's voided bill: {voided}")
    driver.get(f"{server.url}/#routemap://bills/{voided_id}")
    page.wait(lambda: page.bill()["id"] == voided_id, "the voided bill by deep link")
    page.idle()
    check(page.find('[data-route="bill"] .badge').text == "Voided", "the voided bill's badge")
    check(page.find('[data-route="bill"] .void-reason').text == "Voided: opened by mistake", "the voided bill's reason")
    check(not page.find_all('[data-route="bill"] form[data-action="void"]'), "a voided bill still offers void")
    page.screenshot("voided")

    print("deep links: in the page, and opening the page with one")
    driver.get(f"{server.url}/#routemap://bills/{first_bill['id']}")
    page.wait(lambda: page.bill()["id"] == first_bill["id"], "the deep-linked bill (hash change)")
    page.idle()
    check(page.bill()["status"] == "paid" and page.bill()["lines"] == quantities, f"the deep-linked bill shows {page.bill()}")
    check(page.script("return location.hash") == "", "the deep link stays in the address")
    # The summary is shown only for a checked-out bill (its guard): a bill checked out elsewhere.
    checked_out = server.send_json("POST", "/v1/bills", token)["bill"]["id"]
    server.send_json("POST", f"/v1/bills/{checked_out}/items", token, {"menuItemId": "latte", "quantity": 1})
    server.send_json("POST", f"/v1/bills/{checked_out}/checkout", token)
    driver.get("about:blank")
    driver.get(f"{server.url}/#routemap://bills/{checked_out}/summary")
    page.wait(lambda: page.find_all('dialog[open][data-presented="orderSummary"]'), "the deep-linked summary (page load)")
    page.idle()
    check(page.bill()["id"] == checked_out, "the summary's bill is not in the bill pane")
    page.screenshot("deep-link")
    # Voided again, so the empty bill before it is this till's current bill for what follows.
    server.send_json("POST", f"/v1/bills/{checked_out}/void", token, {"reason": "test bill"})

    run_generic_order(page, server, prices, token)

    print("the browser logged no errors (script errors, Content-Security-Policy violations)")
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(not errors, f"browser errors: {errors}")

    print("?screens= without the tab bar, which has no declarative rendering: the server refuses, the page says so")
    driver.get(f"{server.url}/?screens=splitView,menu,bill")
    page.wait(lambda: page.find("#alert").is_displayed(), "the server's refusal")
    check(page.find("#alert-text").text.startswith("Unsupported client: "), f"the page shows {page.find('#alert-text').text!r}")
    check(page.bill() is None and not page.find_all('[data-route="bill"]'), "a bill is drawn though the server refused to launch")
    page.screenshot("fewer-screens-refused")


# ---- an order through the generic renderer --------------------------------------------------


def generic_bill(page):
    """What the generically drawn bill shows: its caption ("Open · bill_…"), its line rows'
    titles, its totals' texts and its buttons' titles."""
    return page.script("""
        const bill = document.querySelector('[data-route="bill"][data-renderer="declarative"]');
        if (!bill) return null;
        const rows = [...bill.querySelectorAll('.component-row')].map((row) => ({
          title: row.querySelector('.row-title').textContent, value: row.querySelector('.row-value')?.textContent ?? null }));
        const totals = Object.fromEntries(rows.filter((row) => ['Subtotal', 'Tax', 'Total'].includes(row.title)).map((row) => [row.title, row.value]));
        return {
          caption: bill.querySelector('.text-caption')?.textContent,
          lines: rows.filter((row) => row.title.includes(' × ')).map((row) => row.title),
          totals, buttons: [...bill.querySelectorAll('button')].map((button) => button.textContent),
        };""")


def tap_generic(page, route, title):
    """Clicks the button titled `title` on the generically drawn screen of `route`."""
    buttons = [button for button in page.find_all(f'[data-route="{route}"][data-renderer="declarative"] button') if button.text == title]
    check(len(buttons) == 1, f"{len(buttons)} buttons titled {title!r} on the generic {route} screen")
    buttons[0].click()


def usd(minor):
    return f"{minor // 100}.{minor % 100:02d} USD"


def run_generic_order(page, server, prices, token):
    driver = page.driver
    print("?screens=tabBar,splitView: the menu and the bill come as component trees; an order taken through them")
    driver.get(f"{server.url}/?screens=tabBar,splitView")
    page.wait(lambda: generic_bill(page) is not None, "the generically drawn bill")
    page.idle()
    check(page.find('[data-route="menu"]').get_attribute("data-renderer") == "declarative", "the menu is not drawn generically")
    check(not page.find_all(".menu-item, .line"), "the page drew a native menu or bill")
    bill = generic_bill(page)
    status, bill_id = bill["caption"].split(" · ")
    check(status == "Open" and bill["lines"] == [] and "Check out" not in " ".join(bill["buttons"]), f"the new bill is not open and empty: {bill}")

    def lines_become(expected, message):
        page.wait(lambda: generic_bill(page)["lines"] == expected, message)
        page.idle()

    tap_generic(page, "menu", f"Latte · {usd(prices['latte'])}")
    lines_become(["1 × Latte"], "the latte on the bill")
    tap_generic(page, "menu", f"Butter Croissant · {usd(prices['croissant'])}")
    lines_become(["1 × Latte", "1 × Butter Croissant"], "the croissant on the bill")
    check("−1 Latte" not in generic_bill(page)["buttons"], "a line of 1 offers −1")
    tap_generic(page, "bill", "+1 Latte")
    lines_become(["2 × Latte", "1 × Butter Croissant"], "two lattes after +1")
    check(page.script("return document.activeElement.textContent") == "+1 Latte", "focus left the +1 control after the bill was redrawn")
    tap_generic(page, "bill", "Remove Butter Croissant")
    lines_become(["2 × Latte"], "the croissant removed")
    subtotal, tax, total = expected_totals(prices, {"latte": 2})
    bill = generic_bill(page)
    check(bill["totals"] == {"Subtotal": usd(subtotal), "Tax": usd(tax), "Total": usd(total)}, f"the generic bill's totals are {bill['totals']}")
    served = server.get_json(f"/v1/bills/{bill_id}", token)
    check([(line["menuItemId"], line["quantity"]) for line in served["lines"]] == [("latte", 2)], f"the server's bill has {served['lines']}")
    page.screenshot("generic-bill")

    tap_generic(page, "bill", f"Check out {usd(total)}")
    page.wait(lambda: page.find_all('dialog[open][data-presented="orderSummary"]'), "the order summary over the generic bill")
    page.idle()
    bill = generic_bill(page)
    # Voided on its summary, with pay and cancel: the bill under it offers none of them.
    check(bill["caption"] == f"Checked out · {bill_id}" and bill["buttons"] == ["New bill", "Open bills", "Name bill"],
          f"the checked-out bill still offers line, checkout or void controls: {bill}")
    summary = page.find('dialog[data-presented="orderSummary"]')
    summary.find_element(By.CSS_SELECTOR, 'input[name="method"][value="cash"]').click()
    summary.find_element(By.CSS_SELECTOR, 'input[name="tenderedMinor"]').send_keys("20")
    summary.find_element(By.CSS_SELECTOR, 'form[data-action="pay"] button[type="submit"]').click()
    page.wait(lambda: not page.find_all('dialog[data-presented="orderSummary"]'), "the order summary to be dismissed")
    page.idle()
    bill = generic_bill(page)
    next_status, next_id = bill["caption"].split(" · ")
    check(next_status == "Open" and next_id != bill_id and bill["lines"] == [], f"the next bill is not a new, open, empty one: {bill}")
    check(page.find("#status").text == f"Change due: {money(2000 - total)}", f"the change reads {page.find('#status').text!r}")
    check(server.get_json(f"/v1/bills/{bill_id}", token)["status"] == "paid", "the server says the generic order is not paid")
    page.screenshot("generic-paid")


# ---- the cash drawer tab -------------------------------------------------------------------


def drawer_rows(page):
    """The generically drawn drawer screen's rows, `{title: [detail, value]}`, or None when it is not shown."""
    return page.script("""
        const drawer = document.querySelector('[data-route="drawer"][data-renderer="declarative"]');
        if (!drawer) return null;
        return Object.fromEntries([...drawer.querySelectorAll('.component-row')].map((row) => [
          row.querySelector('.row-title').textContent,
          [row.querySelector('.row-detail')?.textContent ?? null, row.querySelector('.row-value')?.textContent ?? null]]));""")


def drawer_submit(page, action, values):
    """Fills the drawer's form for `action` with `values` (input name → text) and submits it."""
    form = page.find(f'[data-route="drawer"] form[data-action="{action}"]')
    for name, text in values.items():
        form.find_element(By.CSS_SELECTOR, f'input[name="{name}"]').send_keys(text)
    form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()


def run_drawer(page, server):
    """The Drawer tab (drawn by the generic renderer: the page has no native drawer screen): a
    shift opened with a float, cash paid in, then closed with a count 0.25 short; each answer
    replaces the drawer, which ends on the cash-up with its variance. The Order tab comes back."""
    driver = page.driver
    token = page.script("return localStorage.getItem('routemap.token')")
    print("drawer: routemap://drawer over the order summary selects the Drawer tab beside Order")
    # The modifier scenario left its bill checked out: launch presents its summary, which the
    # link dismisses before it selects the tab.
    driver.get(server.url + "/#routemap://drawer")
    page.wait(lambda: drawer_rows(page) is not None, "the drawer screen")
    page.idle()
    check(not page.find_all('dialog[open]'), "the order summary still covers the tab bar")
    tabs = [tab.text for tab in page.find_all('[role="tab"]')]
    check(tabs == ["Order", "Drawer"], f"the tab bar shows {tabs}")
    check(page.find('[role="tab"][aria-selected="true"]').text == "Drawer", "the Drawer tab is not selected")
    page.find('[role="tab"][data-anchor="splitContainer"]').click()
    page.wait(lambda: page.bill() is not None and drawer_rows(page) is None, "the Order tab's bill")
    page.idle()

    print("drawer: the Drawer tab tapped; open a shift, pay in, close with a count: the variance shown")
    page.find('[role="tab"][data-anchor="drawer"]').click()
    page.wait(lambda: drawer_rows(page) is not None, "the drawer screen")
    page.idle()
    check(page.find('[role="tab"][aria-selected="true"]').text == "Drawer", "the Drawer tab is not selected")
    check(page.find_all('[data-route="drawer"] form[data-action="openShift"]'), "no form to open a shift")
    page.screenshot("drawer-closed")

    drawer_submit(page, "openShift", {"openingFloatMinor": "100"})
    page.wait(lambda: page.find_all('[data-route="drawer"] form[data-action="payIn"]'), "the open shift's pay-in form")
    page.idle()
    check((drawer_rows(page) or {}).get("Expected in drawer", (None, None))[1] == usd(10000), f"the open drawer shows {drawer_rows(page)}")
    drawer_submit(page, "payIn", {"amountMinor": "5", "reason": "Change from the bank"})
    page.wait(lambda: (drawer_rows(page) or {}).get("Expected in drawer", (None, None))[1] == usd(10500), "105.00 expected after the pay-in")
    page.idle()
    shift = server.get_json("/v1/shifts/current", token)
    check(shift["payInsMinor"] == 500 and shift["expectedCashMinor"] == 10500, f"the server's shift is {shift}")
    page.screenshot("drawer-open")

    drawer_submit(page, "closeShift", {"countedCashMinor": "104.75"})
    page.wait(lambda: "Variance" in (drawer_rows(page) or {}), "the closed shift's cash-up")
    page.idle()
    rows = drawer_rows(page)
    check(rows["Variance"] == ["Short", "-0.25 USD"], f"the variance reads {rows['Variance']}")
    check(rows["Counted"] == [None, usd(10475)] and rows["Expected in drawer"][1] == usd(10500), f"the cash-up reads {rows}")
    check(page.find_all('[data-route="drawer"] form[data-action="openShift"]'), "no form to open the next shift")
    closed = server.get_json(f"/v1/shifts/{shift['shiftId']}", token)
    check(closed["status"] == "closed" and closed["varianceMinor"] == -25, f"the server's closed shift is {closed}")
    page.screenshot("drawer-cashed-up")

    page.find('[role="tab"][data-anchor="splitContainer"]').click()
    page.wait(lambda: page.bill() is not None, "the Order tab's bill")
    page.idle()
    check(page.find('[role="tab"][aria-selected="true"]').text == "Order", "the Order tab is not selected again")


# ---- every step, in a copy of the page with a seam ----------------------------------------


def run_trivia(page, server):
    """The trivia app in the same page (`/?app=trivia`), with the device the point of sale enrolled:
    a game played to its results through the popover, then the no-data screen through the sheet."""
    driver = page.driver
    token = page.script("return localStorage.getItem('routemap.token')")

    def options():
        return page.script("""
            const options = document.querySelector('[data-route="options"]');
            if (!options || !options.isConnected || options.closest('dialog')) return null;
            return {difficulty: options.querySelector('.difficulty')?.dataset.difficulty,
                    category: options.querySelector('.category')?.dataset.category};""")

    def choose(action, presented, title):
        page.find(f'[data-route="options"] button[data-action="{action}"]').click()
        page.wait(lambda: page.find_all(f'dialog[open][data-presented="{presented}"]'), f"the {presented}")
        page.idle()
        pick(presented, title)

    def pick(presented, title):
        """Chooses `title` in the popover or sheet `presented` on display, which dismisses it."""
        page.wait(lambda: page.script("return document.getAnimations().every((animation) => animation.playState !== 'running')"),
                  f"the {presented}'s animation to finish")
        dialog = page.find(f'dialog[data-presented="{presented}"]')
        dialog.find_element(By.XPATH, f'.//button[@data-action="choose"][starts-with(normalize-space(.), "{title}")]').click()
        page.wait(lambda: not page.find_all(f'dialog[data-presented="{presented}"]'), f"the {presented} to be dismissed")
        page.idle()

    print("trivia: the landing with its options, on the same device")
    driver.get(server.url + "/?app=trivia")
    page.wait(lambda: options() is not None, "the trivia landing and its options")
    page.idle()
    check(options() == {"difficulty": "mixed", "category": "any"}, f"the options at launch: {options()}")
    check(page.find('[data-route="landing"] .blurb').text.startswith("5 questions a game"), "the landing's blurb")

    print("trivia: the difficulty popover, anchored to its control; Easy replaces the options")
    page.find('[data-route="options"] button[data-action="chooseDifficulty"]').click()
    page.wait(lambda: page.find_all('dialog[open][data-presented="difficultyMenu"]'), "the difficulty popover")
    page.idle()
    # Read once the popover has appeared (selenium reads no text from an element still fading in).
    page.wait(lambda: page.script("return document.getAnimations().every((animation) => animation.playState !== 'running')"),
              "the popover's animation to finish")
    check("layer-popover" in page.find('dialog[data-presented="difficultyMenu"]').get_attribute("class"), "the difficulty menu is not a popover")
    titles = page.script("""return [...document.querySelectorAll('dialog[data-presented="difficultyMenu"] button[data-action="choose"]')]
                              .map((button) => button.textContent.trim());""")
    check([title.rstrip(" ✓") for title in titles] == ["Mixed", "Easy", "Medium", "Hard"], f"the popover offers {titles}")
    anchor = page.find('[data-route="options"] button[data-action="chooseDifficulty"]').rect
    popover = page.find('dialog[data-presented="difficultyMenu"]').rect
    check(popover["y"] >= anchor["y"] + anchor["height"] - 1 or popover["y"] + popover["height"] <= anchor["y"] + 1,
          f"the popover {popover} does not sit beside its anchor {anchor}")
    page.screenshot("trivia-popover")
    page.find('dialog[data-presented="difficultyMenu"]').find_element(By.XPATH, './/button[starts-with(normalize-space(.), "Easy")]').click()
    page.wait(lambda: not page.find_all('dialog[data-presented="difficultyMenu"]'), "the popover to be dismissed")
    page.idle()
    check(options() == {"difficulty": "easy", "category": "any"}, f"the options after choosing Easy: {options()}")

    print("trivia: play one game to its results, answering with the first choice")
    page.find('[data-route="options"] button[data-action="play"]').click()
    page.wait(lambda: page.find_all('[data-route="game"] .question'), "the game's first question")
    page.idle()

    print("trivia: back from a game to the landing (the game's answer has no stack: the page moved its own)")
    page.find('.nav-bar:not([hidden]) button.back').click()
    page.wait(lambda: options() is not None and not page.find_all('[data-route="game"]'), "the landing after back")
    page.idle()
    check(not page.find("#alert").is_displayed(), f"back was refused: {page.find('#alert-text').text!r}")

    print("trivia: Change difficulty on the options back on display: the walk starts from what they show")
    # The stack back from a game lists the root only; the page gives the options the focus (as a
    # tap in them does) and sends its stack then, so the popover opens on the difficulty chosen.
    page.network()
    page.find('[data-route="options"] button[data-action="chooseDifficulty"]').click()
    page.wait(lambda: page.find_all('dialog[open][data-presented="difficultyMenu"]'), "the difficulty popover after back")
    page.idle()
    sent = [json.loads(walk["body"])["from"] for walk in page.sent("POST", r"/navigate$")]
    check(sent == [[{"route": "trivia", "inputs": {}}, {"route": "landing", "inputs": {}},
                    {"route": "options", "inputs": {"difficulty": "easy", "category": "any"}}]],
          f"the walk to the popover after back was sent from {sent}")
    selected = page.script("""return [...document.querySelectorAll('dialog[data-presented="difficultyMenu"] button[data-action="choose"]')]
                                .map((button) => button.textContent.trim()).filter((title) => title.endsWith('✓'));""")
    check(selected == ["Easy ✓"], f"the popover after back marks {selected} as chosen, not Easy")
    pick("difficultyMenu", "Easy")
    check(options() == {"difficulty": "easy", "category": "any"}, f"the options after choosing Easy again: {options()}")
    page.find('[data-route="options"] button[data-action="play"]').click()
    page.wait(lambda: page.find_all('[data-route="game"] .question'), "the game's first question")
    page.idle()
    game_id = page.find('[data-route="game"]').get_attribute("data-game-id")
    page.screenshot("trivia-question")
    count = server.get_json(f"/v1/trivia/games/{game_id}", token)["questionCount"]

    def progress():
        # Read in the page: the game screen is drawn again after each answer (no stale element).
        return page.script("return document.querySelector('[data-route=\"game\"] .progress')?.textContent ?? ''")

    for number in range(1, count + 1):
        check(progress().startswith(f"Question {number} of {count}"), f"question {number}: {progress()!r}")
        choices = page.find_all('[data-route="game"] .choices button')
        check(len(choices) == 4, f"question {number} offers {len(choices)} choices")
        if number == 1:
            # With the keyboard: the verdict is read out (the status line) and the focus goes to the next question.
            page.script("arguments[0].focus()", choices[0])
            page.press(Keys.ENTER)
            page.wait(lambda: progress().startswith("Question 2 "), "question 2")
            page.idle()
            focused = page.script("return document.activeElement.className")
            check(focused == "question", f"after an answer the focus is on {focused!r}, not the next question")
            verdict = page.find('[data-route="game"] .verdict').text
            check(page.find("#status").text == verdict, f"the status line reads {page.find('#status').text!r}, not the verdict {verdict!r}")
            continue
        choices[0].click()
        if number < count:
            page.wait(lambda: progress().startswith(f"Question {number + 1} "), f"question {number + 1}")
        else:
            page.wait(lambda: page.find_all('[data-route="results"] .score'), "the results")
        page.idle()
    stored = server.get_json(f"/v1/trivia/games/{game_id}", token)
    check(stored["status"] == "finished" and stored["answeredCount"] == count, f"the server's game: {stored['status']}, {stored['answeredCount']}")
    score = page.find('[data-route="results"] .score')
    check(score.get_attribute("data-score") == str(stored["score"]), f"the results show {score.text}, the server {stored['score']}")
    check(len(page.find_all('[data-route="results"] li.result')) == count, "the results do not list every question")
    page.screenshot("trivia-results")

    print("trivia: play again walks back to the landing, with the game's options")
    page.find('[data-route="results"] button[data-action="playAgain"]').click()
    page.wait(lambda: options() is not None and not page.find_all('[data-route="results"]'), "the landing again")
    page.idle()
    check(options() == {"difficulty": "easy", "category": "any"}, f"the options after play again: {options()}")

    print("trivia: Change difficulty and Change category tapped quickly: the second walk starts where the first left the page")
    # On a slow network both taps come before the first answer. The category walk is sent once
    # the popover is presented, from the page's stack then (not the options its template names),
    # so the server dismisses the popover as it presents the sheet: the page shows what the
    # answer's stack says, and the category chosen in the sheet is kept.
    page.network(delay=300)
    walked = len(page.sent("POST", r"/navigate$"))
    page.script("""for (const action of ['chooseDifficulty', 'chooseCategory'])
                     document.querySelector(`[data-route="options"] button[data-action="${action}"]`).click();""")
    page.wait(lambda: page.find_all('dialog[open][data-presented="categoryPicker"]'), "the category sheet after the quick taps")
    page.idle()
    walks = [json.loads(walk["body"]) for walk in page.sent("POST", r"/navigate$")[walked:]]
    check([walk["to"] for walk in walks] == ["difficultyMenu", "categoryPicker"], f"the quick taps sent the walks {walks}")
    # The answer the page got, asked again (a walk changes nothing): its stack against the page's layers.
    answered = [entry["route"] for entry in server.send_json("POST", "/v1/apps/trivia/navigate", token, walks[1])["stack"]]
    presenting = {route for route, kind in trivia_routes(server, token).items() if kind == "present"}
    layers = lambda: page.script("return [...document.querySelectorAll('dialog')].map((dialog) => dialog.dataset.presented)")
    check(layers() == [route for route in answered if route in presenting],
          f"after the quick taps the page presents {layers()}; the answer's stack is {answered}")
    check([entry["route"] for entry in walks[1]["from"]] == ["trivia", "landing", "options", "difficultyMenu"],
          f"the category walk was sent from {walks[1]['from']}, not the page's stack with the popover on top")
    pick("categoryPicker", "Music")
    check(layers() == [], f"layers stay after Music was chosen: {layers()}")
    check(options() == {"difficulty": "easy", "category": "music"}, f"the options after the quick taps and Music: {options()}")
    page.network()

    print("trivia: a hard game of music has no questions: the no-data screen, and back")
    choose("chooseCategory", "categoryPicker", "Music")
    choose("chooseDifficulty", "difficultyMenu", "Hard")
    check(options() == {"difficulty": "hard", "category": "music"}, f"the options: {options()}")
    page.find('[data-route="options"] button[data-action="play"]').click()
    page.wait(lambda: page.find_all('[data-route="noData"]'), "the no-data screen")
    page.idle()
    no_data = page.find('[data-route="noData"]')
    check("There are no hard questions in Music." in no_data.text, f"the no-data screen says {no_data.text!r}")
    page.screenshot("trivia-no-data")
    no_data.find_element(By.CSS_SELECTOR, 'button[data-action="changeOptions"]').click()
    page.wait(lambda: options() is not None and not page.find_all('[data-route="noData"]'), "the landing after the no-data screen")
    page.idle()
    check(options() == {"difficulty": "hard", "category": "music"}, f"the options after the no-data screen: {options()}")


def trivia_routes(server, token):
    """The trivia registry's routes, each with its presentation's kind (`embed`, `push`, `present`, …)."""
    kinds = {}

    def visit(node):
        kinds[node["id"]] = node["presentation"]["kind"]
        for child in node.get("children", []):
            visit(child)

    visit(server.get_json("/v1/apps/trivia/routes", token)["root"])
    return kinds


# ---- double-clicks, on a slow network -------------------------------------------------------


def run_double_taps(page, server):
    """Every control sends the request it showed when tapped, once: a double-click is one tap.
    Requests are held 300 ms on their way, so the second click comes before the first's answer."""
    driver = page.driver
    token = page.script("return localStorage.getItem('routemap.token')")

    print("double-click: three open bills, the first resumed; Void voids it alone")
    driver.get(server.url + "/")
    page.wait(lambda: page.bill() is not None, "the bill")
    page.idle()

    def new_bill_with(item):
        before = page.bill()["id"]
        page.find('[data-route="bill"] button[data-action="newBill"]').click()
        page.wait(lambda: page.bill()["id"] != before, "a new bill")
        page.idle()
        page.find(f'[data-route="menu"] button[data-item-id="{item}"]').click()
        page.wait(lambda: page.bill()["lines"] == {item: 1}, f"the {item} on the new bill")
        page.idle()
        return page.bill()["id"]

    first, second, third = new_bill_with("latte"), new_bill_with("espresso"), new_bill_with("croissant")
    page.find('[data-route="bill"] button[data-action="showBills"]').click()
    page.wait(lambda: page.find_all('dialog[open][data-presented="billList"]'), "the bill list")
    page.idle()
    page.find(f'dialog[data-presented="billList"] button[data-action="resume"][data-focus-key*="{first}"]').click()
    page.wait(lambda: page.bill()["id"] == first and not page.find_all("dialog"), "the first bill resumed")
    page.idle()
    page.network(delay=300)
    page.find('[data-route="bill"] form[data-action="void"] input[name="reason"]').send_keys("wrong table")
    page.double_click('[data-route="bill"] form[data-action="void"] button[type="submit"]')
    page.wait(lambda: page.bill()["id"] != first, "another bill after the void")
    page.idle()
    statuses = {bill: server.get_json(f"/v1/bills/{bill}", token)["status"] for bill in (first, second, third)}
    check(statuses == {first: "voided", second: "open", third: "open"}, f"after a double-click on Void: {statuses}")
    check(len(page.sent("POST", r"/void$")) == 1, f"a double-click sent {len(page.sent('POST', r'/void$'))} voids")

    print("double-click: + on a line sends one change, and the page shows what the server has")
    shown = page.bill()
    line = next(iter(shown["lines"]))
    page.double_click(f'[data-route="bill"] .line[data-menu-item-id="{line}"] button.stepper[aria-label^="More"]')
    page.wait(lambda: page.bill()["lines"][line] != 1, "the line's new quantity")
    page.idle()
    served = {entry["menuItemId"]: entry["quantity"] for entry in server.get_json(f"/v1/bills/{shown['id']}", token)["lines"]}
    check(page.bill()["lines"] == served == {line: 2}, f"after a double-click on +: the page shows {page.bill()['lines']}, the server has {served}")
    check(len(page.sent("PATCH", r"/items/")) == 1, f"a double-click on + sent {len(page.sent('PATCH', r'/items/'))} changes")

    print("double-click: Pay pays once, with no error")
    paid = page.bill()["id"]
    page.find('[data-route="bill"] button[data-action="checkout"]').click()
    page.wait(lambda: page.find_all('dialog[open][data-presented="orderSummary"]'), "the order summary")
    page.idle()
    page.find('dialog[data-presented="orderSummary"] input[name="method"][value="card"]').click()
    page.double_click('dialog[data-presented="orderSummary"] form[data-action="pay"] button[type="submit"]')
    page.wait(lambda: not page.find_all('dialog[data-presented="orderSummary"]'), "the order summary to be dismissed")
    page.idle()
    check(server.get_json(f"/v1/bills/{paid}", token)["status"] == "paid", "the double-clicked bill is not paid")
    check(len(page.sent("POST", r"/pay$")) == 1, f"a double-click on Pay sent {len(page.sent('POST', r'/pay$'))} payments")

    print("double-click: trivia's Play starts one game with the options shown, an answer answers one question")
    driver.get(server.url + "/?app=trivia")
    page.wait(lambda: page.find_all('[data-route="options"] button[data-action="play"]'), "the trivia landing")
    page.idle()
    page.network(delay=300)
    page.double_click('[data-route="options"] button[data-action="play"]')
    page.wait(lambda: page.find_all('[data-route="game"] .question'), "the game's first question")
    page.idle()
    starts = page.sent("POST", r"/v1/trivia/games$")
    check([json.loads(start["body"]) for start in starts] == [{"difficulty": "mixed", "category": "any"}],
          f"a double-click on Play sent {[start['body'] for start in starts]}")
    question = page.find('[data-route="game"] .question').get_attribute("data-question-id")
    choice = page.find('[data-route="game"] .choices button').text
    page.double_click('[data-route="game"] .choices button')
    page.wait(lambda: page.script("return document.querySelector('[data-route=\"game\"] .progress')?.textContent ?? ''").startswith("Question 2 "),
              "the second question")
    page.idle()
    answers = [json.loads(answer["body"]) for answer in page.sent("POST", r"/answers$")]
    check(answers == [{"questionId": question, "answer": choice}], f"a double-click on an answer sent {answers}")


# ---- modifiers: the sheet of an item with modifier groups ------------------------------------


def modifier_sheet(page):
    """What the modifier sheet on display shows: its item, each group's legend and options (the
    label, the input's type, whether it is checked or disabled), Add's title and state, the hint."""
    return page.script("""
        const sheet = document.querySelector('dialog[open][data-presented="modifierSheet"]');
        if (!sheet) return null;
        const add = sheet.querySelector('button[data-action="addItem"]');
        return {
          item: sheet.querySelector('.sheet-item')?.textContent,
          groups: [...sheet.querySelectorAll('fieldset.modifier-group')].map((group) => ({
            legend: group.querySelector('legend').textContent,
            options: [...group.querySelectorAll('label')].map((label) => {
              const input = label.querySelector('input');
              return { text: label.textContent.trim(), type: input.type, checked: input.checked, disabled: input.disabled };
            }),
          })),
          add: add && { text: add.textContent, disabled: add.disabled },
          hint: sheet.querySelector('.sheet-hint')?.textContent ?? null,
        };""")


def bill_lines(page):
    """The bill pane's lines in order: item, name, quantity, unit price and total (minor units), the options' texts."""
    return page.script("""
        return [...document.querySelectorAll('[data-route="bill"] .line')].map((line) => ({
          item: line.dataset.menuItemId, name: line.querySelector('.line-name').textContent, quantity: Number(line.dataset.quantity),
          unit: Number(line.dataset.unitMinor), total: Number(line.querySelector('.line-total').dataset.minor),
          modifiers: [...line.querySelectorAll('.line-modifier')].map((modifier) => modifier.textContent),
          each: line.querySelector('.line-unit')?.textContent ?? null,
        }));""")


def open_new_bill(page, server):
    """Loads the page, waits for its bill, taps "New bill" and returns the new bill's id once shown."""
    page.driver.get(server.url + "/")
    page.wait(lambda: page.bill() is not None, "the bill")
    page.idle()
    before = page.bill()["id"]
    page.find('[data-route="bill"] button[data-action="newBill"]').click()
    page.wait(lambda: page.bill()["id"] != before, "a new bill")
    page.idle()
    return page.bill()["id"]


def run_modifiers(page, server):
    """A manager gives the latte a milk (none or one) and a size (exactly one): a tap on Latte
    presents its sheet, whose Add stays disabled until a size is chosen and sends the options
    chosen; the bill's line shows them and their price, and the same choices again raise it. A
    refusal the page could not foresee (the milk made required meanwhile) is shown in the sheet,
    which is read again; Cancel adds nothing."""
    driver = page.driver
    token = page.script("return localStorage.getItem('routemap.token')")
    driver.get_log("browser")  # what the scenarios before this one logged
    manager = server.send_json("POST", "/v1/devices", None, {"name": "manager", "enrollmentCode": MANAGER_ENROLLMENT_CODE, "role": "manager"})["token"]
    latte = next(item for item in server.get_json("/v1/menu/items", token)["items"] if item["id"] == "latte")
    check(latte["priceMinor"] == 475, f"the demo menu's latte costs {latte['priceMinor']}, not 475")
    milk = {"id": "milk", "name": "Milk", "minChoices": 0, "maxChoices": 1,
            "options": [{"id": "oat", "name": "Oat", "priceMinor": 50}, {"id": "almond", "name": "Almond", "priceMinor": 50}]}
    size = {"id": "size", "name": "Size", "minChoices": 1, "maxChoices": 1,
            "options": [{"id": "regular", "name": "Regular", "priceMinor": 0}, {"id": "large", "name": "Large", "priceMinor": 80}]}
    server.send_json("PATCH", "/v1/menu/items/latte", manager, {"modifierGroups": [milk, size]})

    print("modifiers: tapping Latte presents its sheet (chooseModifiers), and adds nothing")
    bill_id = open_new_bill(page, server)
    tile = '[data-route="menu"] button[data-item-id="latte"]'
    check(page.find(tile).get_attribute("data-action") == "chooseModifiers", "the latte's tile does not send its row's chooseModifiers")
    page.network()

    def open_sheet():
        page.find(tile).click()
        page.wait(lambda: modifier_sheet(page) is not None, "the latte's modifier sheet")
        page.idle()
        page.wait(lambda: page.script("return document.getAnimations().every((animation) => animation.playState !== 'running')"),
                  "the sheet's animation to finish")

    def choose(option):
        page.find(f'dialog[data-presented="modifierSheet"] input[data-option-id="{option}"]').click()

    def add():
        page.find('dialog[data-presented="modifierSheet"] button[data-action="addItem"]').click()
        page.wait(lambda: not page.find_all('dialog[data-presented="modifierSheet"]'), "the sheet to be dismissed after Add")
        page.idle()

    open_sheet()
    check(page.script("return document.querySelector('dialog[data-presented=\"modifierSheet\"]').matches('.layer-sheet:modal')"),
          "the modifier sheet is not presented as a modal sheet")
    check(page.bill()["lines"] == {} and not page.sent("POST", r"/items$"), "tapping Latte added it without its options")
    walks = [json.loads(walk["body"]) for walk in page.sent("POST", r"/navigate$")]
    check([(walk["to"], walk["input"]) for walk in walks] == [("modifierSheet", {"billId": bill_id, "menuItemId": "latte"})],
          f"tapping Latte sent the walks {walks}")
    shown = modifier_sheet(page)
    check(shown["item"] == "Latte $4.75", f"the sheet's item reads {shown['item']!r}")
    check(shown["groups"] == [
        {"legend": "Milk (up to 1)", "options": [
            {"text": "None", "type": "radio", "checked": True, "disabled": False},
            {"text": "Oat +$0.50", "type": "radio", "checked": False, "disabled": False},
            {"text": "Almond +$0.50", "type": "radio", "checked": False, "disabled": False}]},
        {"legend": "Size (choose 1)", "options": [
            {"text": "Regular +$0.00", "type": "radio", "checked": False, "disabled": False},
            {"text": "Large +$0.80", "type": "radio", "checked": False, "disabled": False}]},
    ], f"the sheet's groups: {shown['groups']}")
    check(shown["add"] == {"text": "Add $4.75", "disabled": True} and shown["hint"] == "Size: choose 1.",
          f"with no size chosen, Add is {shown['add']} and the hint reads {shown['hint']!r}")

    print("modifiers: Oat alone leaves Add disabled; Large enables it; Add sends both and the bill shows the line")
    choose("oat")
    shown = modifier_sheet(page)
    check(shown["add"] == {"text": "Add $5.25", "disabled": True} and shown["hint"] == "Size: choose 1.",
          f"with only Oat chosen, Add is {shown['add']} and the hint reads {shown['hint']!r}")
    page.find('dialog[data-presented="modifierSheet"] button[data-action="addItem"]').click()  # disabled: does nothing
    check(not page.sent("POST", r"/items$"), "a click on the disabled Add sent an add")
    choose("large")
    shown = modifier_sheet(page)
    check(shown["add"] == {"text": "Add $6.05", "disabled": False} and shown["hint"] == "",
          f"with Oat and Large chosen, Add is {shown['add']} and the hint reads {shown['hint']!r}")
    page.screenshot("modifier-sheet")
    add()
    adds = [json.loads(request["body"]) for request in page.sent("POST", r"/items$")]
    check(adds == [{"menuItemId": "latte", "quantity": 1, "modifiers": ["oat", "large"]}], f"Add sent {adds}")
    line = {"item": "latte", "name": "Latte", "quantity": 1, "unit": 605, "total": 605,
            "modifiers": ["Oat +$0.50", "Large +$0.80"], "each": "$6.05 each"}
    check(bill_lines(page) == [line], f"the bill's lines after Add: {bill_lines(page)}")
    subtotal, tax, total = expected_totals({"latte": 605}, {"latte": 1})
    bill = page.bill()
    check(bill["id"] == bill_id and (bill["subtotal"], bill["tax"], bill["total"]) == (subtotal, tax, total),
          f"the bill shows {bill['subtotal']}+{bill['tax']}={bill['total']}, not {subtotal}+{tax}={total}")
    check(page.script("return document.activeElement.dataset.focusKey") == "item:latte", "focus did not come back to the Latte tile")

    print("modifiers: Latte again with the same options (chosen the other way round) raises that line to 2")
    open_sheet()
    choose("large")
    choose("oat")
    add()
    check(bill_lines(page) == [{**line, "quantity": 2, "total": 1210}], f"the bill's lines after the same options again: {bill_lines(page)}")
    subtotal, tax, total = expected_totals({"latte": 605}, {"latte": 2})
    bill = page.bill()
    check((bill["subtotal"], bill["tax"], bill["total"]) == (subtotal, tax, total) and bill["totalText"] == money(total),
          f"the bill shows {bill['subtotal']}+{bill['tax']}={bill['total']} ({bill['totalText']}), not {subtotal}+{tax}={total}")
    served = server.get_json(f"/v1/bills/{bill_id}", token)["lines"]
    check([(entry["quantity"], entry["unitPriceMinor"], [option["optionId"] for option in entry["modifiers"]]) for entry in served] == [(2, 605, ["oat", "large"])],
          f"the server's lines: {served}")

    print("modifiers: Latte with Regular only is a line of its own; None leaves the milk out")
    open_sheet()
    choose("oat")
    choose("")  # None again
    choose("regular")
    add()
    check(json.loads(page.sent("POST", r"/items$")[-1]["body"])["modifiers"] == ["regular"], "None did not leave the milk out")
    check(bill_lines(page)[1] == {"item": "latte", "name": "Latte", "quantity": 1, "unit": 475, "total": 475,
                                  "modifiers": ["Regular +$0.00"], "each": "$4.75 each"}, f"the bill's lines: {bill_lines(page)}")
    subtotal, tax, total = expected_totals({"oat-large": 605, "regular": 475}, {"oat-large": 2, "regular": 1})
    bill = page.bill()
    check((bill["subtotal"], bill["tax"], bill["total"]) == (subtotal, tax, total), f"the bill shows {bill['subtotal']}+{bill['tax']}={bill['total']}")
    page.screenshot("modifier-lines")

    print("modifiers: Cancel dismisses the sheet (a walk to its parent) and adds nothing")
    adds = len(page.sent("POST", r"/items$"))
    open_sheet()
    choose("almond")
    page.find('dialog[data-presented="modifierSheet"] button[data-focus-key="modifierSheet:cancel"]').click()
    page.wait(lambda: not page.find_all("dialog"), "the sheet to be dismissed by Cancel")
    page.idle()
    check(json.loads(page.sent("POST", r"/navigate$")[-1]["body"]).get("mode") == "parent", "Cancel did not ask for the sheet's parent")
    check(len(page.sent("POST", r"/items$")) == adds and len(bill_lines(page)) == 2, "Cancel added the latte")

    print("modifiers: a group of up to 2 is checkboxes; with two chosen the third is disabled")
    extras = {"id": "extras", "name": "Extras", "minChoices": 0, "maxChoices": 2, "options": [
        {"id": "shot", "name": "Extra shot", "priceMinor": 60}, {"id": "syrup", "name": "Syrup", "priceMinor": 40},
        {"id": "cream", "name": "Cream", "priceMinor": 30}]}
    server.send_json("PATCH", "/v1/menu/items/cappuccino", manager, {"modifierGroups": [extras]})
    time.sleep(5)  # the page reads the menu at most every 5 s
    page.script("window.dispatchEvent(new Event('focus'))")
    page.wait(lambda: page.find(tile.replace("latte", "cappuccino")).get_attribute("data-action") == "chooseModifiers",
              "the cappuccino's tile to open its options once the menu was read again")
    page.idle()
    page.find(tile.replace("latte", "cappuccino")).click()
    page.wait(lambda: modifier_sheet(page) is not None, "the cappuccino's modifier sheet")
    page.idle()
    page.wait(lambda: page.script("return document.getAnimations().every((animation) => animation.playState !== 'running')"),
              "the sheet's animation to finish")
    boxes = lambda: [(option["type"], option["checked"], option["disabled"]) for option in modifier_sheet(page)["groups"][0]["options"]]
    check(modifier_sheet(page)["groups"][0]["legend"] == "Extras (up to 2)" and boxes() == [("checkbox", False, False)] * 3,
          f"the extras: {modifier_sheet(page)['groups']}")
    check(modifier_sheet(page)["add"] == {"text": "Add $4.50", "disabled": False}, f"with no extras Add is {modifier_sheet(page)['add']}")
    choose("shot")
    choose("cream")
    check(boxes() == [("checkbox", True, False), ("checkbox", False, True), ("checkbox", True, False)], f"with two extras chosen: {boxes()}")
    check(modifier_sheet(page)["add"] == {"text": "Add $5.40", "disabled": False}, f"with two extras Add is {modifier_sheet(page)['add']}")
    choose("shot")
    check(boxes() == [("checkbox", False, False), ("checkbox", False, False), ("checkbox", True, False)], f"with one extra left: {boxes()}")
    page.press(Keys.ESCAPE)
    page.wait(lambda: not page.find_all("dialog"), "the sheet to be dismissed by Escape")
    page.idle()
    check(len(page.sent("POST", r"/items$")) == adds and len(bill_lines(page)) == 2, "Escape added the cappuccino")
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(not errors, f"browser errors: {errors}")

    print("modifiers: the milk made required meanwhile: the server's refusal is shown in the sheet, which is read again")
    open_sheet()
    server.send_json("PATCH", "/v1/menu/items/latte", manager, {"modifierGroups": [{**milk, "minChoices": 1}, size]})
    choose("large")
    page.find('dialog[data-presented="modifierSheet"] button[data-action="addItem"]').click()
    page.wait(lambda: page.alert_text() is not None, "the refusal")
    page.wait(lambda: page.script("return !document.body.hasAttribute('aria-busy')"), "the page to read the sheet again")
    check(page.alert_text() == "Modifier choice invalid: Milk takes 1 choice; 0 were chosen.", f"the alert reads {page.alert_text()!r}")
    check(page.script("return document.getElementById('alert').closest('dialog')?.dataset.presented") == "modifierSheet",
          "the refusal is not shown in the sheet")
    shown = modifier_sheet(page)
    check(shown is not None and shown["groups"][0]["legend"] == "Milk (choose 1)" and shown["groups"][0]["options"][0]["text"] == "Oat +$0.50",
          f"the sheet read again shows {shown and shown['groups']}")
    check(len(bill_lines(page)) == 2, f"the refused add changed the bill: {bill_lines(page)}")
    page.screenshot("modifier-refused")
    page.find("#alert-close").click()
    choose("almond")
    choose("large")
    add()
    check(bill_lines(page)[2]["modifiers"] == ["Almond +$0.50", "Large +$0.80"], f"the bill's lines: {bill_lines(page)}")

    print("modifiers: the order summary shows each line's options")
    page.find('[data-route="bill"] button[data-action="checkout"]').click()
    page.wait(lambda: page.find_all('dialog[open][data-presented="orderSummary"]'), "the order summary")
    page.idle()
    details = page.script("return [...document.querySelectorAll('dialog[data-presented=\"orderSummary\"] .row-detail')].map((detail) => detail.textContent)")
    check(details[:3] == ["Oat +0.50 USD · Large +0.80 USD · 6.05 USD each", "Regular +0.00 USD · 4.75 USD each",
                          "Almond +0.50 USD · Large +0.80 USD · 6.05 USD each"], f"the summary's lines read {details}")


# ---- a server that answers late or not at all -----------------------------------------------


def line_notes(page):
    """The bill pane's lines in order: item, quantity and the note shown under it (None without one)."""
    return page.script("""
        return [...document.querySelectorAll('[data-route="bill"] .line')].map((line) => ({
          item: line.dataset.menuItemId, quantity: Number(line.dataset.quantity),
          note: line.querySelector('.line-note')?.textContent ?? null,
        }));""")


def load_with_new_bill(page, server, token):
    """Opens a new bill through the API, so it is current before the page loads (the scenario
    before may leave its bill checked out, its summary over the page), loads the page and returns
    the bill's id once the page shows it."""
    bill_id = server.send_json("POST", "/v1/bills", token)["bill"]["id"]
    page.driver.get(server.url + "/")
    page.wait(lambda: (page.bill() or {}).get("id") == bill_id, "the new bill")
    page.idle()
    return bill_id


def run_notes(page, server):
    """A line's note: "Note" under an open line opens its field, Save sends setNote and the note
    shows under the line (and is on the server's bill); the same item tapped again is a line of
    its own (a note is part of the line); saving the field empty removes the note."""
    token = page.script("return localStorage.getItem('routemap.token')")
    print("notes: a note written under a line is shown there and kept by the server; empty removes it")
    bill_id = load_with_new_bill(page, server, token)
    tile = '[data-route="menu"] button[data-item-id="croissant"]'
    page.find(tile).click()
    page.wait(lambda: line_notes(page) == [{"item": "croissant", "quantity": 1, "note": None}], "a croissant line without a note")
    page.idle()

    def write_note(text):
        page.find('[data-route="bill"] .line .note-toggle').click()
        field = page.find('[data-route="bill"] .line .note-form input[name="note"]')
        check(field.is_displayed(), "the note's field is not shown after Note")
        field.clear()
        if text:
            field.send_keys(text)
        page.find('[data-route="bill"] .line .note-form button[type="submit"]').click()

    write_note("  warm it up ")
    page.wait(lambda: line_notes(page) == [{"item": "croissant", "quantity": 1, "note": "warm it up"}], "the note under the line")
    page.idle()
    stored = server.get_json(f"/v1/bills/{bill_id}", token)["lines"]
    check([line.get("note") for line in stored] == ["warm it up"], f"the server's bill has notes {stored}")
    page.screenshot("line-note")

    page.find(tile).click()
    page.wait(lambda: len(line_notes(page)) == 2, "a second croissant line: the note is part of the line")
    page.idle()
    check(line_notes(page) == [{"item": "croissant", "quantity": 1, "note": "warm it up"}, {"item": "croissant", "quantity": 1, "note": None}],
          f"the lines after a second croissant: {line_notes(page)}")

    write_note("")
    page.wait(lambda: [line["note"] for line in line_notes(page)] == [None, None], "the note removed")
    page.idle()
    stored = server.get_json(f"/v1/bills/{bill_id}", token)["lines"]
    check(all("note" not in line for line in stored), f"the server's bill still has a note: {stored}")


def bill_label(page):
    """The bill pane's name ("Table 4"), None without one."""
    return page.script("return document.querySelector('[data-route=\"bill\"] .bill-label')?.textContent ?? null")


def run_labels(page, server):
    """A bill's name: typed into the bill pane's "Bill name" field and saved, it leads the pane
    and is on the server's bill; two bills named differently are told apart in the bill list by
    their names, and "Resume Table 4" there brings that one back; "Remove name" takes it off."""
    token = page.script("return localStorage.getItem('routemap.token')")
    print("labels: a bill named in its pane is found by its name in the bill list; Remove name takes it off")
    table = load_with_new_bill(page, server, token)
    check(bill_label(page) is None, "a new bill shows a name")

    def name_bill(text):
        field = page.find('[data-route="bill"] form.label-form input[name="label"]')
        field.clear()
        if text:
            field.send_keys(text)
        page.find('[data-route="bill"] form.label-form button[type="submit"]').click()

    name_bill("  Table 4 ")
    page.wait(lambda: bill_label(page) == "Table 4", "the name leading the bill")
    page.idle()
    check(server.get_json(f"/v1/bills/{table}", token).get("label") == "Table 4", "the server's bill has no name")
    page.screenshot("bill-label")

    page.find('[data-route="bill"] button[data-action="newBill"]').click()
    page.wait(lambda: page.bill()["id"] != table, "a second bill")
    page.idle()
    tab = page.bill()["id"]
    name_bill("Sam's tab")
    page.wait(lambda: bill_label(page) == "Sam's tab", "the second bill's name")
    page.idle()

    page.find('[data-route="bill"] button[data-action="showBills"]').click()
    page.wait(lambda: page.find_all('dialog[open][data-presented="billList"]'), "the bill list")
    page.idle()
    titles = page.script("""
        return [...document.querySelectorAll('dialog[data-presented="billList"] .component-row .row-title')].map((title) => title.textContent);""")
    check("Table 4" in titles and "Sam's tab" in titles, f"the bill list's rows are {titles}")
    page.screenshot("bill-list-labels")
    resume = [button for button in page.find_all('dialog[data-presented="billList"] button[data-action="resume"]') if button.text == "Resume Table 4"]
    check(len(resume) == 1, f"{len(resume)} buttons 'Resume Table 4' in the bill list")
    resume[0].click()
    page.wait(lambda: page.bill()["id"] == table and not page.find_all("dialog[open]"), "Table 4 resumed")
    page.idle()
    check(bill_label(page) == "Table 4", f"the resumed bill shows {bill_label(page)!r}")

    page.find('[data-route="bill"] button[data-action="removeLabel"]').click()
    page.wait(lambda: bill_label(page) is None, "the name taken off")
    page.idle()
    check("label" not in server.get_json(f"/v1/bills/{table}", token), "the server's bill still has a name")
    check(server.get_json(f"/v1/bills/{tab}", token).get("label") == "Sam's tab", "the other bill lost its name")


def run_stock(page, server):
    """Stock counts: a manager counts the cinnamon rolls (1 left); the menu's tile says so, a tap
    adds it, and once that bill is paid the tile says "Sold out" (the page reads the menu again
    itself) and cannot be tapped."""
    token = page.script("return localStorage.getItem('routemap.token')")
    manager = server.send_json("POST", "/v1/devices", None, {"name": "stock manager", "enrollmentCode": MANAGER_ENROLLMENT_CODE, "role": "manager"})["token"]
    server.send_json("PATCH", "/v1/menu/items/cinnamon-roll", manager, {"stock": 1})
    print("stock: a counted item shows how many are left; paying the last one shows it sold out")
    bill_id = load_with_new_bill(page, server, token)
    tile = '[data-route="menu"] button[data-item-id="cinnamon-roll"]'
    check("1 left" in page.find(tile).text and page.find(tile).is_enabled(), f"the counted tile shows {page.find(tile).text!r}")
    check("left" not in page.find('[data-route="menu"] button[data-item-id="bagel"]').text, "an uncounted item says how many are left")
    page.screenshot("stock-left")
    page.find(tile).click()
    page.wait(lambda: page.bill()["lines"] == {"cinnamon-roll": 1}, "the cinnamon roll on the bill")
    page.idle()
    page.find('[data-route="bill"] button[data-action="checkout"]').click()
    page.wait(lambda: page.find_all('dialog[open][data-presented="orderSummary"]'), "the order summary")
    page.idle()
    page.find('dialog[data-presented="orderSummary"] input[name="method"][value="card"]').click()
    page.find('dialog[data-presented="orderSummary"] form[data-action="pay"] button[type="submit"]').click()
    page.wait(lambda: not page.find_all('dialog[data-presented="orderSummary"]'), "the order summary to be dismissed")
    page.idle()
    check(server.get_json(f"/v1/bills/{bill_id}", token)["status"] == "paid", "the cinnamon roll's bill is not paid")
    roll = next(item for item in server.get_json("/v1/menu/items", token)["items"] if item["id"] == "cinnamon-roll")
    check(roll.get("stock") == 0, f"the server's cinnamon roll after selling the last: {roll}")
    # No reload: the page reads the menu again once a paid bill sold a counted item.
    page.wait(lambda: "Sold out" in page.find(tile).text, "the tile to say Sold out after the payment")
    page.idle()
    check(not page.find(tile).is_enabled(), f"the sold-out tile shows {page.find(tile).text!r} and can be tapped")
    page.screenshot("stock-sold-out")
    server.send_json("PATCH", "/v1/menu/items/cinnamon-roll", manager, {"stock": None})


def run_unreliable(page, server):
    """A server that answers 503 timed_out after 1 s and 429 past 4 requests a second, and answers
    lost on their way back: a change whose answer never came is sent again with its key (by the
    page, or by a second tap of the same control), so it happens once; a refusal saying the screen
    is out of date makes the page read it again, so it is never left on a screen whose controls can
    only fail; a refusal among quick taps stays on screen."""
    driver = page.driver
    print("a server that times out after 1 s: a change held up by a locked database is asked again with its key, once")
    driver.get(f"{server.url}/?code={ENROLLMENT_CODE}")
    page.wait(lambda: page.bill() is not None, "the bill on a new server")
    page.idle()
    token = page.script("return localStorage.getItem('routemap.token')")
    bill_id = page.bill()["id"]
    page.network()
    time.sleep(1.5)  # a full bucket of the rate limit
    holder = sqlite3.connect(server.database_path, timeout=5, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    page.find('[data-route="menu"] button[data-item-id="latte"]').click()
    time.sleep(2.5)  # the server has answered 503 timed_out by now; the add still waits for the lock
    holder.execute("ROLLBACK")
    holder.close()
    page.wait(lambda: page.bill()["lines"] == {"latte": 1}, "the latte on the bill once the database is free")
    page.idle()
    served = server.get_json(f"/v1/bills/{bill_id}", token)["lines"]
    check([(line["menuItemId"], line["quantity"]) for line in served] == [("latte", 1)], f"the server's bill: {served}")
    keys = {request["key"] for request in page.sent("POST", r"/items$")}
    check(len(keys) == 1, f"the add was sent with {len(keys)} keys")

    print("answers lost on the way back: the page stops asking, says so, and a second tap sends the same change again, applied once")
    page.network(lose=r"/items$", losses=3)
    page.find('[data-route="menu"] button[data-item-id="espresso"]').click()
    page.wait(lambda: page.alert_text() is not None, "the page to say the add got no answer")
    page.wait(lambda: page.script("return !document.body.hasAttribute('aria-busy')"), "the page to read the bill again")
    check(page.alert_text().startswith("No answer from the server") and "Tap it again" in page.alert_text(), f"the alert reads {page.alert_text()!r}")
    page.find('[data-route="menu"] button[data-item-id="espresso"]').click()
    page.wait(lambda: page.bill()["lines"].get("espresso") == 1 and page.alert_text() is None, "the espresso on the bill after the second tap")
    page.idle()
    served = {line["menuItemId"]: line["quantity"] for line in server.get_json(f"/v1/bills/{bill_id}", token)["lines"]}
    check(served == {"latte": 1, "espresso": 1}, f"two taps of an add whose answer was lost: the server's bill has {served}")
    keys = {request["key"] for request in page.sent("POST", r"/items$") if "espresso" in request["body"]}
    check(len(keys) == 1, f"the espresso was sent with {len(keys)} keys")

    print("paid on another till meanwhile: Pay on the summary is refused, and the page reads again where the till is")
    page.find('[data-route="bill"] button[data-action="checkout"]').click()
    page.wait(lambda: page.find_all('dialog[open][data-presented="orderSummary"]'), "the order summary")
    page.idle()
    total = server.get_json(f"/v1/bills/{bill_id}", token)["totalMinor"]
    server.send_json("POST", f"/v1/bills/{bill_id}/pay", token, {"method": "card", "amountMinor": total},
                     headers={"Idempotency-Key": "0d5e7c36-2f7a-4b1e-9c2d-6a8f3b4e5d71"})
    page.find('dialog[data-presented="orderSummary"] input[name="method"][value="card"]').click()
    page.find('dialog[data-presented="orderSummary"] form[data-action="pay"] button[type="submit"]').click()
    page.wait(lambda: page.alert_text() is not None, "the refusal")
    page.wait(lambda: page.script("return !document.body.hasAttribute('aria-busy')"), "the page to read where the till is")
    check(page.alert_text().startswith("Bill not checked out"), f"the alert reads {page.alert_text()!r}")
    check(not page.find_all("dialog"), "the summary of a bill paid elsewhere stays, with controls that can only fail")
    check(page.bill()["id"] != bill_id and page.bill()["status"] == "open", f"the bill pane after the refusal: {page.bill()}")
    page.find("#alert-close").click()
    page.idle()

    print("eight quick taps over a rate limit of 4 a second, then Show Bills: the refused ones are sent again after Retry-After, each once")
    bill_id = page.bill()["id"]
    quick = ["latte", "espresso", "americano", "cappuccino", "flat-white", "croissant", "blueberry-muffin", "chai-latte"]
    sent_before = len(page.sent("POST", r"/items$"))
    time.sleep(1.5)
    page.script("""
        for (const item of arguments[0]) document.querySelector(`[data-route="menu"] button[data-item-id="${item}"]`).click();
        document.querySelector('[data-route="bill"] button[data-action="showBills"]').click();""", quick)
    page.wait(lambda: page.find_all('dialog[open][data-presented="billList"]'), "the bill list after the quick taps", timeout=20)
    page.idle()
    check(len(page.bill()["lines"]) == len(quick), f"the bill shows {page.bill()['lines']}")
    page.press(Keys.ESCAPE)
    page.wait(lambda: not page.find_all("dialog"), "the bill list to be dismissed")
    page.idle()
    served = {line["menuItemId"]: line["quantity"] for line in server.get_json(f"/v1/bills/{bill_id}", token)["lines"]}
    check(served == {item: 1 for item in quick}, f"after eight quick taps the server's bill has {served}")
    sends = len(page.sent("POST", r"/items$")) - sent_before
    check(sends > len(quick), f"{sends} adds sent for {len(quick)} taps: none was refused 429, so this tests nothing")

    print("a refusal among quick taps stays on screen: the answers to the taps after it do not clear it")
    manager = server.send_json("POST", "/v1/devices", None, {"name": "manager", "enrollmentCode": MANAGER_ENROLLMENT_CODE, "role": "manager"})["token"]
    server.send_json("PATCH", "/v1/menu/items/americano", manager, {"available": False})
    time.sleep(1.5)
    page.script("for (const item of arguments[0]) document.querySelector(`[data-route=\"menu\"] button[data-item-id=\"${item}\"]`).click();",
                ["americano", "cappuccino"])
    page.wait(lambda: page.bill()["lines"].get("cappuccino") == 2, "the cappuccino after the refused americano")
    page.wait(lambda: page.script("return !document.body.hasAttribute('aria-busy')"), "the page to finish its requests")
    check((page.alert_text() or "").startswith("Menu item unavailable"), f"after the refused americano and an added cappuccino the alert reads {page.alert_text()!r}")
    page.find('[data-route="menu"] button[data-item-id="latte"]').click()
    page.wait(lambda: page.bill()["lines"].get("latte") == 2, "another latte")
    page.wait(lambda: page.script("return !document.body.hasAttribute('aria-busy')"), "the page to finish its requests")
    check((page.alert_text() or "").startswith("Menu item unavailable"), f"a tap on another control cleared the alert about americano: {page.alert_text()!r}")
    page.find("#alert-close").click()
    page.idle()

    print("the menu, live: the refused item's tile is redrawn unavailable; focus on the window reads the menu again")

    def tile(item):
        return page.script("""
            const tile = document.querySelector(`[data-route="menu"] button[data-item-id="${arguments[0]}"]`);
            return tile && { disabled: tile.disabled, price: tile.querySelector('.price').textContent };""", item)

    check(tile("americano") == {"disabled": True, "price": "Unavailable"}, f"the menu after americano was refused shows it as {tile('americano')}")
    server.send_json("PATCH", "/v1/menu/items/latte", manager, {"priceMinor": 515})
    server.send_json("POST", "/v1/menu/items", manager, {"id": "hot-chocolate", "name": "Hot Chocolate", "category": "coffee", "priceMinor": 400})
    server.send_json("DELETE", "/v1/menu/items/cold-brew", manager)
    server.send_json("POST", "/v1/menu/items", manager, {"id": "long-name", "name": LONG_NAME, "category": "coffee", "priceMinor": 9999999})
    time.sleep(5)  # the page reads the menu at most every 5 s
    page.script("window.dispatchEvent(new Event('focus'))")
    page.wait(lambda: tile("latte")["price"] == "$5.15" and tile("hot-chocolate") is not None and tile("cold-brew") is None,
              "the repriced, new and retired items on the menu after the window got the focus")
    page.idle()
    # The walk to the menu left the stack on it: the steps of the next answers still fit.
    page.find('[data-route="menu"] button[data-item-id="hot-chocolate"]').click()
    page.wait(lambda: page.bill()["lines"].get("hot-chocolate") == 1, "the new item on the bill")
    page.idle()
    page.find('[data-route="menu"] button[data-item-id="long-name"]').click()
    page.wait(lambda: page.bill()["lines"].get("long-name") == 1, "the item with a long name on the bill")
    page.idle()
    check(not overflowing(page, '[data-route="menu"] button[data-item-id="long-name"]', '[data-route="bill"]'),
          f"a name of {len(LONG_NAME)} characters without a space overflows: {overflowing(page, '[data-route=menu] button[data-item-id=long-name]', '[data-route=bill]')}")
    page.find('[data-route="bill"] button[data-action="checkout"]').click()
    page.wait(lambda: page.find_all('dialog[open][data-presented="orderSummary"]'), "the order summary after the menu was read again")
    page.idle()
    check(not overflowing(page, 'dialog[data-presented="orderSummary"]'), f"the summary overflows: {overflowing(page, 'dialog[data-presented=orderSummary]')}")
    page.screenshot("long-name-summary")


LONG_NAME = "Supercalifragilisticexpialidocious" * 2 + "W" * 32  # 100 characters, no space


def overflowing(page, *selectors):
    """The elements of `selectors` (and the page) whose content is wider than they are, as `{selector: [content, box]}`."""
    return page.script("""
        const wide = {};
        for (const selector of [...arguments, 'html']) {
          const element = document.querySelector(selector);
          const box = selector === 'html' ? window.innerWidth : element.clientWidth;
          if (element.scrollWidth > box) wide[selector] = [element.scrollWidth, box];
        }
        return Object.keys(wide).length ? wide : null;""", *selectors)


def seam_copy(directory):
    """Public/ with two lines added at the end of app.js's closure: `window.routemapPerform`, the
    page's own step performer, so the test can perform steps the point-of-sale registry never
    sends (push, pop, popTo, sheet, popover, fullScreen), and `window.routemapSend`, its own
    request sender, to send two keyed requests at once. Everything else is the page as served."""
    copy = Path(directory) / "Public"
    copy.mkdir()
    for file in (ROOT / "Public").iterdir():
        (copy / file.name).write_bytes(file.read_bytes())
    script = (copy / "app.js").read_text()
    ending = "})();\n"
    check(script.endswith(ending), "app.js no longer ends with its closure: update the seam")
    (copy / "app.js").write_text(script[: -len(ending)] + "  window.routemapPerform = (steps) => perform(steps, null);\n  window.routemapSend = send;\n" + ending)
    return copy


def declarative(route, title, text):
    return {"type": route, "renderer": "declarative", "title": title, "actions": [],
            "payload": {"components": [{"type": "text", "text": text, "style": "body"}]}}


def run_generic_steps(page, server):
    driver = page.driver
    perform = lambda *steps: page.script("routemapPerform(arguments[0])", list(steps))
    shown_back = lambda: page.script(
        "return [...document.querySelectorAll('.nav-bar')].filter((bar) => !bar.hidden).map((bar) => bar.querySelector('.back').getAttribute('aria-label'))")
    focused_text = lambda: page.script("return document.activeElement.textContent")

    print("every step: push, pop, popTo, sheet, popover, fullScreen, refresh (a copy of the page with a seam)")
    driver.get(f"{server.url}/?code={ENROLLMENT_CODE}")
    page.wait(lambda: page.bill() is not None, "the bill after enrolling with ?code=")
    page.idle()
    check("code=" not in driver.current_url, f"the enrollment code stays in the address: {driver.current_url}")

    perform({"op": "push", "route": "detail", "animated": True, "screen": declarative("detail", "Detail", "Pushed once")})
    check(shown_back() == ["Back to Order"], f"after a push the back controls are {shown_back()}")
    check(focused_text() == "Detail", f"focus is on {focused_text()!r}, not the pushed screen's title")
    check(page.bill() is None, "the pushed screen does not cover the split view")
    perform({"op": "push", "route": "more", "animated": True, "screen": declarative("more", "More", "Pushed twice")})
    check(shown_back() == ["Back to Detail"], f"after two pushes the back controls are {shown_back()}")

    perform({"op": "present", "route": "options", "animated": True, "presentation": {"style": "sheet", "inNavigationContainer": True},
             "screen": declarative("options", "Options", "A sheet")})
    check(page.script("return document.querySelector('dialog.layer-sheet[data-presented=\"options\"]').matches(':modal')"), "no modal sheet")
    check(focused_text() == "Options", "focus did not move into the sheet")
    perform({"op": "present", "route": "tip", "animated": False,
             "presentation": {"style": "popover", "anchor": "splitContainer", "inNavigationContainer": False},
             "screen": declarative("tip", "Tip", "Anchored")})
    gap = page.script("""
        const popover = document.querySelector('dialog.layer-popover').getBoundingClientRect();
        const anchor = document.querySelector('[data-anchor="splitContainer"]').getBoundingClientRect();
        return Math.min(Math.abs(popover.bottom - anchor.top), Math.abs(popover.top - anchor.bottom));""")
    check(gap <= 10, f"the popover is {gap}px from its anchor")
    page.screenshot("popover-over-sheet")

    print("Escape on a popover asks the server for `parent` (here refused: the stack never held these screens)")
    page.press(Keys.ESCAPE)
    page.wait(lambda: page.find("#alert").is_displayed(), "the server's answer to `parent`")
    check(page.find("#alert-text").text.startswith("No parent"), f"the page shows {page.find('#alert-text').text!r}")
    page.find("#alert-close").click()

    perform({"op": "dismiss", "route": "options", "animated": True})
    check(not page.find_all("dialog"), "dismissing the sheet left a layer (the popover above it goes too)")
    check(focused_text() == "More", f"focus went to {focused_text()!r}, not back to the screen that presented the sheet")

    perform({"op": "present", "route": "full", "animated": True, "presentation": {"style": "fullScreen", "inNavigationContainer": True},
             "screen": declarative("full", "Full", "Full screen")},
            {"op": "push", "route": "inner", "animated": True, "screen": declarative("inner", "Inner", "Pushed in a presentation")})
    check(shown_back() == ["Back to Detail", "Back to Full"], f"the back controls of the root's and the presentation's stacks: {shown_back()}")
    perform({"op": "pop", "route": "inner", "animated": True})
    check(shown_back() == ["Back to Detail"], f"after the pop the back controls are {shown_back()}")
    perform({"op": "dismiss", "route": "full", "animated": True}, {"op": "popTo", "route": "splitContainer", "animated": True})
    check(shown_back() == [] and page.bill() is not None, "popTo did not bring the split view back")
    bill_id = page.bill()["id"]
    perform({"op": "refresh", "route": "splitContainer", "animated": False,
             "screen": {"type": "splitView", "renderer": "native", "title": "Order", "payload": {}, "actions": []}})
    check(page.bill() is not None and page.bill()["id"] == bill_id and page.find_all('[data-route="menu"] .menu-item'),
          "refreshing the split view lost what its slots showed")
    page.idle()

    print("a keyed request sent again while the first is still being performed: asked again with its key, applied once")
    # Another connection holds the database's write lock, so the first add waits for its commit
    # (under the server's 5 s busy timeout) with its key claimed; the second, with the same key,
    # is answered 409 idempotency_key_in_flight until the first has committed, then replayed.
    holder = sqlite3.connect(server.database_path, timeout=5, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    page.script("""
        window.keyedResults = null;
        const add = () => routemapSend('POST', `/v1/bills/${arguments[0]}/items`,
            { body: { menuItemId: 'latte', quantity: 1 }, headers: { 'Idempotency-Key': 'b4c6f0a2-6f1e-4c51-9a8e-0d2b6f7c1e93' } });
        const first = add();
        const second = new Promise((resolve) => setTimeout(resolve, 300)).then(add);
        Promise.all([first, second]).then((answers) => { window.keyedResults = answers.map((answer) => answer.status); });""", bill_id)
    time.sleep(1.5)
    check(page.script("return window.keyedResults") is None, "the keyed requests were answered while the database was locked")
    holder.execute("ROLLBACK")
    holder.close()
    page.wait(lambda: page.script("return window.keyedResults") is not None, "both keyed requests answered")
    check(page.script("return window.keyedResults") == [200, 200], f"the keyed requests were answered {page.script('return window.keyedResults')}")
    token = page.script("return localStorage.getItem('routemap.token')")
    lines = server.get_json(f"/v1/bills/{bill_id}", token)["lines"]
    check([(line["menuItemId"], line["quantity"]) for line in lines] == [("latte", 1)], f"the bill's lines: {lines}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, help="the routemap binary to serve")
    parser.add_argument("--screenshots", required=True, type=Path, help="directory for the screenshots")
    arguments = parser.parse_args()
    arguments.screenshots.mkdir(parents=True, exist_ok=True)
    for old in arguments.screenshots.glob("*.png"):
        old.unlink()

    started = time.monotonic()
    seam = tempfile.TemporaryDirectory(prefix="routemap-browser-seam-")
    server = Server(arguments.binary, arguments=["--manager-enrollment-code", MANAGER_ENROLLMENT_CODE])
    driver = None
    try:
        driver = start_browser()
        page = Page(driver, arguments.screenshots)
        run(page, server)
        run_trivia(page, server)
        run_double_taps(page, server)
        run_modifiers(page, server)
        run_drawer(page, server)
        run_notes(page, server)
        run_labels(page, server)
        run_stock(page, server)
        server.cleanup()
        server = Server(arguments.binary, arguments=[
            "--request-timeout", "1", "--rate-limit", "4", "--manager-enrollment-code", MANAGER_ENROLLMENT_CODE])
        run_unreliable(page, server)
        server.cleanup()
        server = Server(arguments.binary, public=seam_copy(seam.name))
        driver.delete_all_cookies()
        driver.execute_script("localStorage.clear()")
        run_generic_steps(page, server)
    except (CheckFailed, Exception) as failure:
        print(f"browser test FAILED: {failure}", file=sys.stderr)
        if driver is not None:
            driver.save_screenshot(str(arguments.screenshots / "failure.png"))
            (arguments.screenshots / "failure.html").write_text(driver.page_source)
            print(f"  the page as it was: {arguments.screenshots / 'failure.png'} and failure.html", file=sys.stderr)
            for entry in driver.get_log("browser"):
                print(f"  browser: {entry['level']} {entry['message']}", file=sys.stderr)
        server.stop()
        print(f"  server log:\n{server.log_path.read_text()}", file=sys.stderr)
        return 1
    finally:
        if driver is not None:
            driver.quit()
        server.cleanup()
        seam.cleanup()
    print(f"browser test passed in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
