// Reading forms: leave empty fields and options at their default out of the permalink. The form
// works the same without this script (every field is then sent).
document.querySelectorAll("form.reading-form").forEach((form) => {
  form.addEventListener("submit", () => {
    form.querySelectorAll("input[name], select[name]").forEach((field) => {
      if (field.hasAttribute("data-keep")) return;
      const unchanged = field.dataset.default !== undefined && field.value === field.dataset.default;
      if (field.value === "" || unchanged) field.disabled = true;
    });
  });
});
window.addEventListener("pageshow", () => {
  document.querySelectorAll("form.reading-form [disabled]").forEach((field) => { field.disabled = false; });
});
